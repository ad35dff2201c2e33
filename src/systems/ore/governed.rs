//! The Virtual Veil changes the house rule `player_edits` governs
//! ([`crate::systems::table::approval`]): the values the seed leaves to the
//! Compiler. A track's maximum or current value outside damage and healing,
//! rest days (and whether a professional tended them), a Cyber repair
//! (VV-16), damage taken with its Fault die (VV-12: the only change a player
//! can still make to their Fault dice, since ending combat in a stable place
//! is the Compiler's), and dice-count overrides: a roll of `dice:` instead of
//! the Called Stat's value, a repair with `engineering:` dice (issue 14);
//! and Vitality, Confidence and Cyber, whose value sets their track's
//! maximum (the other stats stay the player's to set).
//! A player's own stat roll, its register, cache and Minor actions are never
//! governed.

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::app::change::{Change, Prepared};
use crate::app::characters::{self, Access, Loaded};
use crate::app::registry::Governed;
use crate::app::settings::{self, PlayerEdits};
use crate::app::{rights, App, AppError, Caller};
use crate::rules::ore::sheet::{Damageable, Stat};
use crate::rules::ore::{OreSettings, OreSheet};

use super::context::{Outcome, Turn};
use super::damage_amount;
use super::{damage, load_settings, roll, sheet, text, GM, HINT, SYSTEM};

/// A roll's dice count (instead of the Called Stat): governed before
/// issue 31, when `/vv roll dice:` waited for the Compiler; a request
/// stored then still reads and applies, but `/vv roll` no longer asks.
const ROLL: Governed = Governed {
    what: "a roll's dice count (instead of the Called Stat)",
    command: "/vv roll dice:",
};

/// Every governed change, in `/help` order.
pub const LIST: &[Governed] = &[
    Governed {
        what: "a track's maximum or current value (Vitality, Confidence, Cyber)",
        command: "/vv sheet set current:|max:",
    },
    Governed {
        what: "healing by rest",
        command: "/vv heal",
    },
    Governed {
        what: "a Cyber repair, and its Engineering dice",
        command: "/vv repair",
    },
    Governed {
        what: "damage taken and its Fault die",
        command: "/vv damage",
    },
    Governed {
        what: "Vitality, Confidence or Cyber (each sets its track's maximum)",
        command: "/vv sheet set stat:Vitality|Confidence|Cyber",
    },
];

/// Whether setting `stat` is governed: the three stats that are also
/// tracks (setting one moves its track's maximum, A-O11).
pub fn is_track_stat(stat: Stat) -> bool {
    stat.track().is_some()
}

pub use crate::app::characters::Who;

/// What `/vv sheet set` was given (issue 31: it took in `/vv sheet track`
/// and `/vv sheet defense`).
#[derive(Debug, Clone, Default)]
pub struct SetArgs {
    /// The stat named.
    pub stat: Option<Stat>,
    /// The stat's new value.
    pub value: Option<i64>,
    /// The stat's track's new current value.
    pub current: Option<i64>,
    /// The stat's track's new maximum.
    pub max: Option<i64>,
    /// Defense, Integrity and Resolve.
    pub defenses: [Option<i64>; 3],
    /// Whose.
    pub who: Who,
}

/// The hint of a `/vv sheet set` given nothing it can set.
const SET_HINT: &str = "Give `stat:` with its `value:` (for Vitality, Confidence or Cyber, \
     the track's `current:` or `max:` instead), or `defense:`, `integrity:` or `resolve:`.";

/// `/vv sheet set`: one stat's value, one track's current value or
/// maximum (the governed [`Edit::TrackStat`] and [`Edit::Track`]), or the
/// defenses, one kind per command (each is its own change, and a governed
/// one may wait for the Compiler).
pub async fn set(app: &App, caller: &Caller, args: SetArgs) -> crate::app::AppResult {
    use crate::systems::table::approval::govern;
    let SetArgs {
        stat,
        value,
        current,
        max,
        defenses,
        who,
    } = args;
    let tracked = current.is_some() || max.is_some();
    if defenses.iter().any(Option::is_some) {
        if stat.is_some() || value.is_some() || tracked {
            return Err(AppError::user(
                "Set the defenses in a command of their own (`defense:`, `integrity:`, `resolve:`), and the stat in another.",
            ));
        }
        let (name, player) = (who.character.as_deref(), who.player);
        return sheet::set_defenses(app, caller, defenses, name, player).await;
    }
    let stat = stat.ok_or_else(|| AppError::user(SET_HINT))?;
    if tracked {
        let track = stat.track().ok_or_else(|| {
            AppError::user(format!(
                "{} has no track: only Vitality, Confidence and Cyber have a `current:` and a `max:`.",
                stat.name()
            ))
        })?;
        if value.is_some() {
            return Err(AppError::user(format!(
                "Set {}'s `value:` or its track's `current:`/`max:`, one per command.",
                stat.name()
            )));
        }
        let edit = Edit::Track {
            track,
            max,
            current,
            who,
        };
        return govern(app, caller, edit).await;
    }
    let value = value.ok_or_else(|| {
        AppError::user(format!("Give {}'s new `value:`. {SET_HINT}", stat.name()))
    })?;
    if is_track_stat(stat) {
        return govern(app, caller, Edit::TrackStat { stat, value, who }).await;
    }
    let (name, player) = (who.character.as_deref(), who.player);
    sheet::set_stat(app, caller, stat, value, name, player).await
}

/// One governed Virtual Veil change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum Edit {
    /// `/vv sheet set` of a track's `current:` or `max:` (was `/vv sheet
    /// track`).
    Track {
        /// Which track.
        track: Damageable,
        /// A new maximum.
        max: Option<i64>,
        /// A new current value.
        current: Option<i64>,
        /// Whose.
        who: Who,
    },
    /// `/vv heal`.
    HealDays {
        /// Days of rest.
        days: i64,
        /// A professional tended them.
        tended: bool,
        /// Whose.
        who: Who,
    },
    /// `/vv repair` (with or without an `engineering:` override).
    Repair {
        /// Engineering dice instead of a character's Engineering.
        engineering: Option<i64>,
        /// Who makes the check (a character's name).
        engineer: Option<String>,
        /// Whose Cyber.
        who: Who,
    },
    /// `/vv damage`.
    Damage {
        /// The track hit.
        track: Damageable,
        /// How much.
        amount: i64,
        /// Whose.
        who: Who,
    },
    /// `/vv roll` with `dice:`.
    Roll {
        /// The Called Stat, if any.
        stat: Option<Stat>,
        /// The dice rolled instead of the stat.
        dice: i64,
        /// The narrowest set accepted.
        min_width: Option<i64>,
        /// The lowest height accepted.
        min_height: Option<i64>,
        /// What the roll is for.
        label: Option<String>,
        /// Whose.
        who: Who,
    },
    /// `/vv sheet set` of Vitality, Confidence or Cyber.
    TrackStat {
        /// The stat (one of the three, see [`is_track_stat`]).
        stat: Stat,
        /// The new value.
        value: i64,
        /// Whose.
        who: Who,
    },
}

/// A change tried on a copy of a sheet before it is asked for, worded as
/// the request shows it ([`Edit::prepared`]).
struct Trial<'a> {
    /// The character's name.
    name: &'a str,
    /// The sheet now.
    before: &'a OreSheet,
    /// The copy the change is tried on.
    after: OreSheet,
}

impl Trial<'_> {
    /// A track as it reads now: `Vitality 3/5`.
    fn track_now(&self, t: Damageable) -> String {
        let tr = self.before.track(t);
        format!(
            "{} {}/{}",
            text::track_name(self.before, t),
            tr.current,
            tr.max
        )
    }

    /// A track now and after: `Vitality 3/5 → 2/5`.
    fn track_change(&self, t: Damageable) -> String {
        let tr = self.after.track(t);
        format!("{} → {}/{}", self.track_now(t), tr.current, tr.max)
    }

    /// A new maximum, current value, or both.
    fn track(
        &mut self,
        track: Damageable,
        max: Option<i64>,
        current: Option<i64>,
    ) -> Result<String, AppError> {
        if max.is_none() && current.is_none() {
            return Err(AppError::user(
                "Give a new `max`, a new `current`, or both.",
            ));
        }
        if let Some(m) = max {
            self.after.set_track_max(track, m)?;
        }
        if let Some(c) = current {
            self.after.set_track_current(track, c)?;
        }
        Ok(format!("{}'s {}", self.name, self.track_change(track)))
    }

    /// Days of rest, tended or not: the tracks that recover.
    fn heal_days(&mut self, days: i64, tended: bool) -> Result<String, AppError> {
        let d = u32::try_from(days)
            .map_err(|_| AppError::user("The number of days must be 1 or more."))?;
        self.after.pass_days(d, tended)?;
        let tracks: Vec<String> = [Damageable::Vitality, Damageable::Confidence]
            .into_iter()
            .filter(|t| self.after.track(*t) != self.before.track(*t))
            .map(|t| self.track_change(t))
            .collect();
        Ok(format!(
            "{}'s rest of {}{}: {}",
            self.name,
            text::count(d, "day", "days"),
            if tended { ", tended" } else { "" },
            if tracks.is_empty() {
                "no track recovers".to_string()
            } else {
                tracks.join(", ")
            }
        ))
    }

    /// A repair check on Cyber, with the sheet's Engineering, another's,
    /// or a number of dice given.
    fn repair(
        &mut self,
        settings: &OreSettings,
        engineering: Option<i64>,
        engineer: Option<&str>,
        rng: &mut StdRng,
    ) -> Result<String, AppError> {
        let name = self.name;
        let dice = match (engineering, engineer) {
            (Some(n), _) => format!("Engineering (overridden: {n} dice)"),
            (None, Some(e)) => format!("{e}'s Engineering"),
            (None, None) => format!("{name}'s Engineering"),
        };
        let n = engineering
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(self.before.stats.engineering);
        self.after.repair_cyber(settings, n, rng)?;
        Ok(format!(
            "{name}'s {} by a repair check with {dice}",
            self.track_now(Damageable::Cyber)
        ))
    }

    /// Damage on a track (and a Fault die, unless a mob).
    fn damage(
        &mut self,
        settings: &OreSettings,
        track: Damageable,
        amount: i64,
        rng: &mut StdRng,
    ) -> Result<String, AppError> {
        let a = damage_amount(amount)?;
        self.after.take_damage(settings, track, a, rng)?;
        Ok(format!(
            "{}'s {} ({a} damage{})",
            self.name,
            self.track_change(track),
            if self.before.mob_mode {
                ""
            } else {
                " and a Fault die"
            }
        ))
    }

    /// A stat the game master keeps (its track's maximum follows).
    fn track_stat(&mut self, stat: Stat, value: i64) -> Result<String, AppError> {
        if !is_track_stat(stat) {
            return Err(AppError::user(format!(
                "{} is not one of the stats the {GM} keeps.",
                stat.name()
            )));
        }
        let old = self.after.set_stat(stat, value)?;
        Ok(format!(
            "{}'s {} {old} → {value} (its track's maximum follows)",
            self.name,
            stat.name(),
        ))
    }

    /// A roll with its pool overridden.
    fn roll(&self, stat: Option<Stat>, dice: i64) -> String {
        let pool = text::count(u32::try_from(dice).unwrap_or(0), "die", "dice");
        match stat {
            Some(s) => format!(
                "{}'s {} roll from {} to {pool} (overridden)",
                self.name,
                s.name(),
                text::count(self.before.stats.get(s), "die", "dice")
            ),
            None => format!("{}'s roll to {pool} (overridden, no stat)", self.name),
        }
    }
}

impl Edit {
    /// An example of each governed change, acting on `who` (for tests that
    /// go through the whole list), in [`LIST`] order.
    pub fn examples(who: Who) -> Vec<Edit> {
        vec![
            Edit::Track {
                track: Damageable::Vitality,
                max: None,
                current: Some(1),
                who: who.clone(),
            },
            Edit::HealDays {
                days: 1,
                tended: true,
                who: who.clone(),
            },
            Edit::Repair {
                engineering: Some(3),
                engineer: None,
                who: who.clone(),
            },
            Edit::Damage {
                track: Damageable::Vitality,
                amount: 1,
                who: who.clone(),
            },
            Edit::TrackStat {
                stat: Stat::Vitality,
                value: 4,
                who,
            },
        ]
    }

    fn who_mut(&mut self) -> &mut Who {
        match self {
            Edit::Track { who, .. }
            | Edit::HealDays { who, .. }
            | Edit::Repair { who, .. }
            | Edit::Damage { who, .. }
            | Edit::Roll { who, .. }
            | Edit::TrackStat { who, .. } => who,
        }
    }
}

impl Change for Edit {
    type Scope = super::context::Ore;

    fn governed(&self) -> Governed {
        LIST[match self {
            Edit::Track { .. } => 0,
            Edit::HealDays { .. } => 1,
            Edit::Repair { .. } => 2,
            Edit::Damage { .. } => 3,
            Edit::Roll { .. } => return ROLL,
            Edit::TrackStat { .. } => 4,
        }]
    }

    async fn prepare(mut self, app: &App, caller: &Caller) -> Result<Prepared<Self>, AppError> {
        let mut tx = app.db.read().await?;
        let fc = rights::is_fc(&mut tx, caller).await?;
        let pick = self.who_mut().pick();
        let ch: Loaded<OreSheet> =
            characters::resolve(&mut tx, caller, fc, SYSTEM, pick, Access::Owner, HINT).await?;
        *self.who_mut() = Who::pinned(&ch.row);
        let settings = load_settings(&mut tx, caller.guild_id).await?;
        // The rules check the change on a copy: a request the rules would
        // refuse is refused now, not after approval. Where the change rolls
        // dice, a throwaway generator stands in (its faces are not shown).
        let mut trial = Trial {
            name: &ch.row.name,
            before: &ch.sheet,
            after: ch.sheet.clone(),
        };
        let mut rng = StdRng::seed_from_u64(0);
        let what = match &self {
            Edit::Track {
                track,
                max,
                current,
                ..
            } => trial.track(*track, *max, *current)?,
            Edit::HealDays { days, tended, .. } => trial.heal_days(*days, *tended)?,
            Edit::Repair {
                engineering,
                engineer,
                ..
            } => trial.repair(&settings, *engineering, engineer.as_deref(), &mut rng)?,
            Edit::Damage { track, amount, .. } => {
                trial.damage(&settings, *track, *amount, &mut rng)?
            }
            Edit::TrackStat { stat, value, .. } => trial.track_stat(*stat, *value)?,
            Edit::Roll { stat, dice, .. } => {
                if caller.secret
                    && settings::guild(&mut tx, caller.guild_id)
                        .await?
                        .player_edits
                        == PlayerEdits::Approval
                {
                    return Err(AppError::user(format!(
                        "A secret roll with `dice:` cannot wait for the {GM}'s approval: roll without `secret`, or roll the stat."
                    )));
                }
                trial.roll(*stat, *dice)
            }
        };
        // A repair check is rolled on a throwaway generator here: whether
        // the real one restores anything is not known yet, so only a repair
        // of a full Cyber track is known to change nothing.
        let unchanged = match &self {
            Edit::Repair { .. } => {
                let cyber = ch.sheet.track(Damageable::Cyber);
                cyber.current >= cyber.max
            }
            _ => trial.after == ch.sheet,
        };
        Ok(Prepared {
            unchanged,
            character: Some(ch.row.id),
            change: self,
            what,
        })
    }

    /// Runs the change in `turn`: its outcome, as the command's own.
    async fn outcome(mut self, app: &App, turn: &mut Turn<'_>) -> Result<Outcome, AppError> {
        let who = self.who_mut().clone();
        let (name, player) = (who.character.as_deref(), who.player);
        match self {
            Edit::Track {
                track,
                max,
                current,
                ..
            } => sheet::set_track_in(turn, track, max, current, name, player).await,
            Edit::HealDays { days, tended, .. } => {
                damage::heal_days_in(turn, days, tended, name, player).await
            }
            Edit::Repair {
                engineering,
                engineer,
                ..
            } => {
                let engineer = engineer.as_deref();
                damage::repair_in(turn, engineering, engineer, name, player).await
            }
            Edit::Damage { track, amount, .. } => {
                damage::damage_in(turn, track, amount, name, player).await
            }
            Edit::Roll {
                stat,
                dice,
                min_width,
                min_height,
                label,
                ..
            } => {
                let args = roll::RollArgs {
                    stat,
                    dice: Some(dice),
                    min_width,
                    min_height,
                    label,
                    name: who.character.clone(),
                    player,
                };
                roll::start_in(turn, app, args).await
            }
            Edit::TrackStat { stat, value, .. } => {
                sheet::set_stat_in(turn, stat, value, name, player).await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_examples_follow_the_list() {
        let ex = Edit::examples(Who::default());
        assert_eq!(ex.len(), LIST.len());
        for (i, e) in ex.iter().enumerate() {
            assert_eq!(e.governed(), LIST[i]);
            let v = serde_json::to_value(e).unwrap();
            assert_eq!(serde_json::from_value::<Edit>(v).unwrap(), *e);
        }
    }
}
