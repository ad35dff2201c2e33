//! The registration of `/game`: slash commands only (a game is no system
//! of its own; the application layer finds it by channel).

/// The games' registry entry.
pub fn entry() -> crate::systems::Entry {
    crate::systems::Entry {
        system: None,
        commands: super::commands::all,
        finish: Some(super::commands::finish),
        odds: None,
    }
}
