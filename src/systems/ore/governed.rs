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

use serde::{Deserialize, Serialize};

use crate::app::change::{Change, Trial, Whose};
use crate::app::registry::Governed;
use crate::app::settings::PlayerEdits;
use crate::app::view::clean;
use crate::app::{App, AppError, Caller};
use crate::rules::ore::sheet::{Damageable, Stat};

use super::context::{Ore, Outcome, Turn};
use super::damage_amount;
use super::{damage, roll, sheet, text, GM};

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
/// maximum (the governed [`What::TrackStat`] and [`What::Track`]), or the
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
        let edit = What::Track {
            track,
            max,
            current,
        };
        return govern(app, caller, edit.of(who)).await;
    }
    let value = value.ok_or_else(|| {
        AppError::user(format!("Give {}'s new `value:`. {SET_HINT}", stat.name()))
    })?;
    if stat.track().is_some() {
        return govern(app, caller, What::TrackStat { stat, value }.of(who)).await;
    }
    let (name, player) = (who.character.as_deref(), who.player);
    sheet::set_stat(app, caller, stat, value, name, player).await
}

/// One governed Virtual Veil change: what, of whom (stored flat,
/// `{"edit": "damage", …, "who": {…}}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// Whose.
    pub who: Who,
    /// What.
    #[serde(flatten)]
    pub what: What,
}

/// What a governed Virtual Veil change does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum What {
    /// `/vv sheet set` of a track's `current:` or `max:` (was `/vv sheet
    /// track`).
    Track {
        /// Which track.
        track: Damageable,
        /// A new maximum.
        max: Option<i64>,
        /// A new current value.
        current: Option<i64>,
    },
    /// `/vv heal`.
    HealDays {
        /// Days of rest.
        days: i64,
        /// A professional tended them.
        tended: bool,
    },
    /// `/vv repair` (with or without an `engineering:` override).
    Repair {
        /// Engineering dice instead of a character's Engineering.
        engineering: Option<i64>,
        /// Who makes the check (a character's name).
        engineer: Option<String>,
    },
    /// `/vv damage`.
    Damage {
        /// The track hit.
        track: Damageable,
        /// How much.
        amount: i64,
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
    },
    /// `/vv sheet set` of Vitality, Confidence or Cyber.
    TrackStat {
        /// The stat (one of the three that are also tracks, A-O11).
        stat: Stat,
        /// The new value.
        value: i64,
    },
}

impl What {
    /// This change of the character `who` names.
    pub fn of(self, who: Who) -> Edit {
        Edit { who, what: self }
    }
}

/// A track now and after: `Vitality 3/5 → 2/5`.
fn track_change(t: &Trial<'_, Ore>, track: Damageable) -> String {
    let tr = t.after.track(track);
    let now = text::track(t.before, track);
    format!("{now} → {}/{}", tr.current, tr.max)
}

/// Days of rest, tended or not: the tracks that recover.
fn heal_days(t: &mut Trial<'_, Ore>, days: i64, tended: bool) -> Result<String, AppError> {
    let d =
        u32::try_from(days).map_err(|_| AppError::user("The number of days must be 1 or more."))?;
    t.after.pass_days(d, tended)?;
    let tracks: Vec<String> = [Damageable::Vitality, Damageable::Confidence]
        .into_iter()
        .filter(|tr| t.after.track(*tr) != t.before.track(*tr))
        .map(|tr| track_change(t, tr))
        .collect();
    Ok(format!(
        "rest of {}{}: {}",
        text::count(d, "day", "days"),
        if tended { ", tended" } else { "" },
        if tracks.is_empty() {
            "no track recovers".to_string()
        } else {
            tracks.join(", ")
        }
    ))
}

/// A roll with its pool overridden.
fn roll_override(t: &Trial<'_, Ore>, stat: Option<Stat>, dice: i64) -> Result<String, AppError> {
    if t.caller.secret && t.rule == PlayerEdits::Approval {
        return Err(AppError::user(format!(
            "A secret roll with `dice:` cannot wait for the {GM}'s approval: roll without `secret`, or roll the stat."
        )));
    }
    let pool = text::count(u32::try_from(dice).unwrap_or(0), "die", "dice");
    Ok(match stat {
        Some(s) => format!(
            "{} roll from {} to {pool} (overridden)",
            s.name(),
            text::count(t.before.stats.get(s), "die", "dice")
        ),
        None => format!("roll to {pool} (overridden, no stat)"),
    })
}

impl Edit {
    /// An example of each governed change, acting on `who` (for tests that
    /// go through the whole list), in [`LIST`] order.
    pub fn examples(who: Who) -> Vec<Edit> {
        [
            What::Track {
                track: Damageable::Vitality,
                max: None,
                current: Some(1),
            },
            What::HealDays {
                days: 1,
                tended: true,
            },
            What::Repair {
                engineering: Some(3),
                engineer: None,
            },
            What::Damage {
                track: Damageable::Vitality,
                amount: 1,
            },
            What::TrackStat {
                stat: Stat::Vitality,
                value: 4,
            },
        ]
        .into_iter()
        .map(|what| what.of(who.clone()))
        .collect()
    }
}

impl Change for Edit {
    type Scope = super::context::Ore;

    fn governed(&self) -> Governed {
        LIST[match self.what {
            What::Track { .. } => 0,
            What::HealDays { .. } => 1,
            What::Repair { .. } => 2,
            What::Damage { .. } => 3,
            What::Roll { .. } => return ROLL,
            What::TrackStat { .. } => 4,
        }]
    }

    fn whose(&mut self) -> Whose<'_> {
        (&mut self.who).into()
    }

    /// Where the change throws dice (a repair, damage and its Fault die),
    /// the throwaway generator stands in.
    fn try_on(&mut self, t: &mut Trial<'_, Ore>) -> Result<String, AppError> {
        Ok(match &self.what {
            What::Track {
                track,
                max,
                current,
            } => {
                t.after.set_track(*track, *max, *current)?;
                track_change(t, *track)
            }
            What::HealDays { days, tended } => heal_days(t, *days, *tended)?,
            What::Repair {
                engineering,
                engineer,
            } => {
                let dice = match (*engineering, engineer) {
                    (Some(n), _) => format!("Engineering (overridden: {n} dice)"),
                    (None, Some(e)) => format!("{}'s Engineering", clean(e)),
                    (None, None) => format!("{}'s Engineering", clean(t.name)),
                };
                let n = engineering
                    .and_then(|n| u32::try_from(n).ok())
                    .unwrap_or(t.before.stats.engineering);
                t.after.repair_cyber(&t.settings, n, &mut t.rng)?;
                // Whether the real roll restores anything is not known
                // yet: only a repair of a full Cyber track is known to
                // change nothing.
                let cyber = t.before.track(Damageable::Cyber);
                t.unchanged = Some(cyber.current >= cyber.max);
                let now = text::track(t.before, Damageable::Cyber);
                format!("{now} by a repair check with {dice}")
            }
            What::Damage { track, amount } => {
                let a = damage_amount(*amount)?;
                t.after.take_damage(&t.settings, *track, a, &mut t.rng)?;
                let fault = if t.before.mob_mode {
                    ""
                } else {
                    " and a Fault die"
                };
                format!("{} ({a} damage{fault})", track_change(t, *track))
            }
            What::TrackStat { stat, value } => {
                if stat.track().is_none() {
                    return Err(AppError::user(format!(
                        "{} is not one of the stats the {GM} keeps.",
                        stat.name()
                    )));
                }
                let old = t.after.set_stat(*stat, *value)?;
                let stat = stat.name();
                format!("{stat} {old} → {value} (its track's maximum follows)")
            }
            What::Roll { stat, dice, .. } => roll_override(t, *stat, *dice)?,
        })
    }

    /// Runs the change in `turn`: its outcome, as the command's own.
    async fn outcome(self, app: &App, turn: &mut Turn<'_>) -> Result<Outcome, AppError> {
        let who = self.who;
        let (name, player) = (who.character.as_deref(), who.player);
        match self.what {
            What::Track {
                track,
                max,
                current,
            } => sheet::set_track_in(turn, track, max, current, name, player).await,
            What::HealDays { days, tended } => {
                damage::heal_days_in(turn, days, tended, name, player).await
            }
            What::Repair {
                engineering,
                engineer,
            } => {
                let engineer = engineer.as_deref();
                damage::repair_in(turn, engineering, engineer, name, player).await
            }
            What::Damage { track, amount } => {
                damage::damage_in(turn, track, amount, name, player).await
            }
            What::Roll {
                stat,
                dice,
                min_width,
                min_height,
                label,
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
            What::TrackStat { stat, value } => {
                sheet::set_stat_in(turn, stat, value, name, player).await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::change::read_back;

    /// Each governed change as an approval row stores it today (written by
    /// `/vv sheet set` … `/vv damage`, and an old `/vv roll dice:`, under
    /// `player_edits = approval`), with its place in [`LIST`] (`None`: the
    /// old roll's [`ROLL`]).
    const STORED: [(&str, Option<usize>); 6] = [
        (
            r#"{"current":1,"edit":"track","max":null,"track":"vitality","who":{"character":"Ada","player":303779529149266183}}"#,
            Some(0),
        ),
        (
            r#"{"days":2,"edit":"heal_days","tended":true,"who":{"character":"Ada","player":303779529149266183}}"#,
            Some(1),
        ),
        (
            r#"{"edit":"repair","engineer":"Bob","engineering":null,"who":{"character":"Ada","player":303779529149266183}}"#,
            Some(2),
        ),
        (
            r#"{"amount":3,"edit":"damage","track":"cyber","who":{"character":"Ada","player":303779529149266183}}"#,
            Some(3),
        ),
        (
            r#"{"edit":"track_stat","stat":"confidence","value":4,"who":{"character":"Ada","player":303779529149266183}}"#,
            Some(4),
        ),
        (
            r#"{"dice":10,"edit":"roll","label":"jump","min_height":null,"min_width":3,"stat":"wit","who":{"character":"Ada","player":303779529149266183}}"#,
            None,
        ),
    ];

    #[test]
    fn a_stored_approval_reads_and_writes_back_the_same() {
        let ada = Who::new(Some("Ada"), Some(303779529149266183));
        for (json, governed) in STORED {
            let edit: Edit = read_back(json, &ada);
            let listed = governed.map_or(ROLL, |i| LIST[i]);
            assert_eq!(edit.governed(), listed, "{json}");
        }
    }

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
