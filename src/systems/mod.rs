//! The systems at the table, registered in one line.
//!
//! Each system lives in one folder here (its application logic, its thin
//! slash commands and a `system.rs` describing it to the application layer)
//! on top of its pure core in [`crate::rules`]. Shared table features
//! (`/fc`, `/history`, `/stats`, `/odds`, `/help`) register the same way.
//! Adding a system means one new folder and one word in the
//! [`register!`] line below; `docs/architecture.md` has the steps.

use std::sync::Arc;

use crate::app::registry::{Registry, System};
use crate::kit::{Data, Error};

/// One registered folder: the system it describes to the application
/// layer (if it owns sessions or house rules) and its slash commands.
pub struct Entry {
    /// The system, as the application layer sees it.
    pub system: Option<Arc<dyn System>>,
    /// Its slash commands.
    pub commands: fn() -> Vec<poise::Command<Data, Error>>,
}

/// Declares each folder as a module and lists its `entry()` in order.
macro_rules! register {
    ($($folder:ident => $entry:path),* $(,)?) => {
        $(pub mod $folder;)*

        /// Every registered folder, in display order.
        pub fn entries() -> Vec<Entry> {
            vec![$($entry()),*]
        }
    };
}

register! {
    dice => dice::system::entry,
    venus => venus::system::entry,
    veracity => veracity::system::entry,
    storyteller => storyteller::system::entry,
    ore => ore::system::entry,
    platform => platform::system::entry,
    fc => fc::entry,
}

/// The registry of every system, for the application layer.
pub fn registry() -> Registry {
    Registry::new(entries().into_iter().filter_map(|e| e.system).collect())
}

/// Every slash command of every registered folder.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    entries().into_iter().flat_map(|e| (e.commands)()).collect()
}
