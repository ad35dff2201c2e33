//! The COMP session (VV-8, VV-17): booting rolls the data cache, logging out
//! or an empty battery loses it, battery use and charging, and discarding
//! dice when the cache is over its maximum (A-O10, A-O11).

use super::events::{LogoutReason, OreEvent};
use super::settings::OreSettings;
use super::sheet::{CacheDie, CacheRef, CacheSource, OreSheet};
use crate::rules::dice::pool;
use crate::rules::RuleError;
use rand::Rng;

impl OreSheet {
    /// Switches the COMP on and rolls cache-size d10s into the cache (VV-8).
    ///
    /// Refused while already running, with an empty unplugged battery, at 0
    /// Cyber (locked out until repaired), or when dead or deleted.
    pub fn boot<R: Rng + ?Sized>(
        &mut self,
        settings: &OreSettings,
        rng: &mut R,
    ) -> Result<Vec<OreEvent>, RuleError> {
        if self.conditions.dead || self.conditions.deleted {
            return Err(RuleError::new(
                "A dead or deleted entity cannot use a COMP.",
            ));
        }
        if self.comp.session_active {
            return Err(RuleError::new("Your COMP is already running."));
        }
        if self.conditions.supernatural_lost {
            return Err(RuleError::new(
                "At 0 Cyber you are locked out of your COMP until your Cyber is repaired.",
            ));
        }
        if self.comp.battery_current == 0 && !self.comp.plugged_in {
            return Err(RuleError::new(
                "Your COMP's battery is empty; charge it or plug it in first.",
            ));
        }
        let size = self.comp.cache_max.min(super::sheet::MAX_CACHE) as usize;
        let faces = pool(rng, size, 10);
        self.comp.session_active = true;
        self.cache = faces
            .iter()
            .map(|&face| CacheDie {
                face,
                source: CacheSource::Boot,
            })
            .collect();
        let mut events = vec![OreEvent::Booted { faces }];
        let excess = self.cache_excess(settings);
        if excess > 0 {
            events.push(OreEvent::CacheOverflow { excess });
        }
        Ok(events)
    }

    /// Ends the COMP session; the cache is lost (VV-8).
    pub fn logout(&mut self, reason: LogoutReason) -> Result<Vec<OreEvent>, RuleError> {
        if !self.comp.session_active {
            return Err(RuleError::new("Your COMP is not running."));
        }
        Ok(vec![self.end_session(reason)])
    }

    /// Ends the session without checks (used by damage and the battery).
    pub(crate) fn end_session(&mut self, reason: LogoutReason) -> OreEvent {
        self.comp.session_active = false;
        self.comp.shutdowns = self.comp.shutdowns.wrapping_add(1);
        let cache_lost = self.cache.drain(..).map(|d| d.face).collect();
        OreEvent::LoggedOut { reason, cache_lost }
    }

    /// Uses `amount` of battery life while the COMP runs; an empty battery
    /// logs the user out (VV-17). Nothing drains while plugged in.
    pub fn use_battery(&mut self, amount: u32) -> Result<Vec<OreEvent>, RuleError> {
        if amount == 0 {
            return Err(RuleError::new("Battery use must be at least 1."));
        }
        if !self.comp.session_active {
            return Err(RuleError::new("Your COMP is not running."));
        }
        if self.comp.plugged_in {
            return Ok(vec![OreEvent::BatteryUsed {
                amount: 0,
                remaining: self.comp.battery_current,
            }]);
        }
        let used = amount.min(self.comp.battery_current);
        self.comp.battery_current -= used;
        let mut events = vec![OreEvent::BatteryUsed {
            amount: used,
            remaining: self.comp.battery_current,
        }];
        if self.comp.battery_current == 0 {
            events.push(self.end_session(LogoutReason::BatteryEmpty));
        }
        Ok(events)
    }

    /// Charges the battery 1:1, up to its maximum (VV-17).
    pub fn charge(&mut self, amount: u32) -> Result<Vec<OreEvent>, RuleError> {
        if amount == 0 {
            return Err(RuleError::new("Charging must add at least 1."));
        }
        let room = self
            .comp
            .battery_max
            .saturating_sub(self.comp.battery_current);
        if room == 0 {
            return Err(RuleError::new("The battery is already full."));
        }
        let added = amount.min(room);
        self.comp.battery_current += added;
        Ok(vec![OreEvent::BatteryCharged {
            amount: added,
            current: self.comp.battery_current,
        }])
    }

    /// The dice the owner may discard while the cache is over its maximum:
    /// every cache die, plus the Fault dice when they count toward it (A-O11).
    /// Empty when nothing must be discarded.
    pub fn discard_options(&self, settings: &OreSettings) -> Vec<CacheRef> {
        if self.cache_excess(settings) == 0 {
            return Vec::new();
        }
        let mut out: Vec<CacheRef> = (0..self.cache.len()).map(CacheRef::Cache).collect();
        if settings.fault_counts_toward_cache && !self.mob_mode {
            out.extend((0..self.fault_dice.len()).map(CacheRef::Fault));
        }
        out
    }

    /// The die discarded when the owner does not choose (A-O10): the lowest
    /// cache face (the last such die on ties); a Fault die only when no cache
    /// die can go.
    pub fn default_discard(&self, settings: &OreSettings) -> Option<CacheRef> {
        let options = self.discard_options(settings);
        let face = |r: &CacheRef| self.face_of(*r).unwrap_or(u32::MAX);
        let cache_pick = options
            .iter()
            .filter(|r| matches!(r, CacheRef::Cache(_)))
            .min_by_key(|r| (face(r), std::cmp::Reverse(index_of(r))))
            .copied();
        cache_pick.or_else(|| options.iter().min_by_key(|r| face(r)).copied())
    }

    /// The face of a cache or Fault die, if it exists.
    pub fn face_of(&self, die: CacheRef) -> Option<u32> {
        match die {
            CacheRef::Cache(i) => self.cache.get(i).map(|d| d.face),
            CacheRef::Fault(i) => self.fault_dice.get(i).copied(),
        }
    }

    /// Discards by default (A-O10: the lowest face) while the cache is over
    /// its maximum with no one asked to choose (a prompt that timed out):
    /// the discards made.
    pub fn discard_overflow(&mut self, settings: &OreSettings) -> Vec<OreEvent> {
        let mut out = Vec::new();
        while self.cache_excess(settings) > 0 {
            let Ok(events) = self.discard_cache_die(settings, None) else {
                break;
            };
            out.extend(
                events
                    .into_iter()
                    .filter(|e| matches!(e, OreEvent::Discarded { .. })),
            );
        }
        out
    }

    /// Discards one die while the cache is over its maximum (VV-8): the
    /// owner's choice, or the default (lowest face, A-O10) when `die` is `None`.
    pub fn discard_cache_die(
        &mut self,
        settings: &OreSettings,
        die: Option<CacheRef>,
    ) -> Result<Vec<OreEvent>, RuleError> {
        let options = self.discard_options(settings);
        if options.is_empty() {
            return Err(RuleError::new(
                "Your cache is not over its maximum, so nothing needs discarding.",
            ));
        }
        let by_default = die.is_none();
        let chosen = match die {
            Some(d) => d,
            None => self
                .default_discard(settings)
                .ok_or_else(|| RuleError::new("There is no die to discard."))?,
        };
        if !options.contains(&chosen) {
            return Err(RuleError::new(match chosen {
                CacheRef::Cache(_) => "There is no such die in your cache.",
                CacheRef::Fault(_) if settings.fault_counts_toward_cache => {
                    "There is no such Fault die."
                }
                CacheRef::Fault(_) => {
                    "Fault dice do not count toward the cache here, so they cannot be discarded."
                }
            }));
        }
        let face = match chosen {
            CacheRef::Cache(i) => self.cache.remove(i).face,
            CacheRef::Fault(i) => self.fault_dice.remove(i),
        };
        let mut events = vec![OreEvent::Discarded {
            die: chosen,
            face,
            by_default,
        }];
        let excess = self.cache_excess(settings);
        if excess > 0 {
            events.push(OreEvent::CacheOverflow { excess });
        }
        Ok(events)
    }
}

/// One choice of the "discard which?" prompt (VV-8): the dice of one kind
/// and face, which are alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscardChoice {
    /// Fault dice counted toward the cache (A-O11), else cache dice.
    pub fault: bool,
    /// Their face.
    pub face: u32,
    /// How many of them may go.
    pub count: usize,
}

impl OreSheet {
    /// The [`OreSheet::discard_options`] told apart by kind and face,
    /// lowest face first (a cache die before a Fault die of its face);
    /// empty when nothing must be discarded.
    pub fn discard_choices(&self, settings: &OreSettings) -> Vec<DiscardChoice> {
        let mut out: Vec<DiscardChoice> = Vec::new();
        for r in self.discard_options(settings) {
            let fault = matches!(r, CacheRef::Fault(_));
            let Some(face) = self.face_of(r) else {
                continue;
            };
            match out.iter_mut().find(|c| c.fault == fault && c.face == face) {
                Some(c) => c.count += 1,
                None => out.push(DiscardChoice {
                    fault,
                    face,
                    count: 1,
                }),
            }
        }
        out.sort_by_key(|c| (c.face, c.fault));
        out
    }

    /// The die a choice of kind and face discards (the last such die), if
    /// one may still go.
    pub fn discard_pick(&self, settings: &OreSettings, fault: bool, face: u32) -> Option<CacheRef> {
        self.discard_options(settings)
            .into_iter()
            .rev()
            .find(|r| matches!(r, CacheRef::Fault(_)) == fault && self.face_of(*r) == Some(face))
    }
}

fn index_of(r: &CacheRef) -> usize {
    match r {
        CacheRef::Cache(i) | CacheRef::Fault(i) => *i,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ore::sheet::Stats;
    use rand::{rngs::StdRng, SeedableRng};

    fn comp_sheet(cache: i64, battery: i64) -> OreSheet {
        let mut s = OreSheet::new(Stats::all(3));
        s.set_cache_max(cache).unwrap();
        s.set_battery_max(battery).unwrap();
        s.comp.battery_current = s.comp.battery_max;
        s
    }

    #[test]
    fn vv_8_boot_rolls_cache_size_dice_and_logout_loses_them() {
        let settings = OreSettings::default();
        let mut s = comp_sheet(4, 3);
        let mut rng = StdRng::seed_from_u64(8);
        let ev = s.boot(&settings, &mut rng).unwrap();
        let OreEvent::Booted { faces } = &ev[0] else {
            panic!("expected Booted, got {ev:?}")
        };
        assert_eq!(faces.len(), 4);
        assert_eq!(s.cache.len(), 4);
        assert!(s.cache.iter().all(|d| d.source == CacheSource::Boot));
        assert!(s.comp.session_active);
        assert!(s.boot(&settings, &mut rng).is_err(), "already running");
        let ev = s.logout(LogoutReason::Manual).unwrap();
        assert_eq!(
            ev,
            vec![OreEvent::LoggedOut {
                reason: LogoutReason::Manual,
                cache_lost: faces.clone()
            }]
        );
        assert!(s.cache.is_empty() && !s.comp.session_active);
        assert!(s.logout(LogoutReason::Manual).is_err());
    }

    /// VV-8, A-O11: the prompt offers each kind and face once, lowest
    /// first, and a choice takes the last die of its kind and face.
    #[test]
    fn vv_8_a_o11_discard_choices_tell_dice_apart_by_kind_and_face() {
        let mut settings = OreSettings {
            fault_counts_toward_cache: true,
            ..OreSettings::default()
        };
        let mut s = comp_sheet(2, 3);
        s.comp.session_active = true;
        s.cache = [7, 3, 7]
            .map(|face| CacheDie {
                face,
                source: CacheSource::Boot,
            })
            .to_vec();
        s.fault_dice = vec![3];
        let choice = |fault, face, count| DiscardChoice { fault, face, count };
        assert_eq!(
            s.discard_choices(&settings),
            vec![choice(false, 3, 1), choice(true, 3, 1), choice(false, 7, 2)]
        );
        assert_eq!(
            s.discard_pick(&settings, false, 7),
            Some(CacheRef::Cache(2))
        );
        assert_eq!(s.discard_pick(&settings, true, 3), Some(CacheRef::Fault(0)));
        assert_eq!(s.discard_pick(&settings, true, 7), None);
        settings.fault_counts_toward_cache = false;
        assert_eq!(s.discard_pick(&settings, true, 3), None);
        s.cache.truncate(2);
        assert!(
            s.discard_choices(&settings).is_empty(),
            "not over the maximum"
        );
    }

    #[test]
    fn vv_17_empty_battery_logs_out_and_blocks_boot_until_charged() {
        let settings = OreSettings::default();
        let mut s = comp_sheet(2, 3);
        let mut rng = StdRng::seed_from_u64(1);
        s.boot(&settings, &mut rng).unwrap();
        let ev = s.use_battery(2).unwrap();
        assert_eq!(
            ev,
            vec![OreEvent::BatteryUsed {
                amount: 2,
                remaining: 1
            }]
        );
        let ev = s.use_battery(5).unwrap();
        assert_eq!(
            ev[0],
            OreEvent::BatteryUsed {
                amount: 1,
                remaining: 0
            }
        );
        assert!(matches!(
            ev[1],
            OreEvent::LoggedOut {
                reason: LogoutReason::BatteryEmpty,
                ..
            }
        ));
        assert!(s.cache.is_empty());
        let err = s.boot(&settings, &mut rng).unwrap_err();
        assert!(err.message.contains("battery is empty"));
        assert_eq!(
            s.charge(10).unwrap(),
            vec![OreEvent::BatteryCharged {
                amount: 3,
                current: 3
            }]
        );
        assert!(s.charge(1).is_err());
        s.boot(&settings, &mut rng).unwrap();
        // Plugged in: no drain.
        s.comp.plugged_in = true;
        s.use_battery(3).unwrap();
        assert_eq!(s.comp.battery_current, 3);
        assert!(s.comp.session_active);
    }

    #[test]
    fn a_o10_discard_defaults_to_the_lowest_face() {
        let settings = OreSettings::default();
        let mut s = comp_sheet(2, 1);
        s.comp.session_active = true;
        for face in [6, 2, 9] {
            s.cache.push(CacheDie {
                face,
                source: CacheSource::Loaded,
            });
        }
        assert_eq!(s.cache_excess(&settings), 1);
        assert_eq!(s.default_discard(&settings), Some(CacheRef::Cache(1)));
        let ev = s.discard_cache_die(&settings, None).unwrap();
        assert_eq!(
            ev,
            vec![OreEvent::Discarded {
                die: CacheRef::Cache(1),
                face: 2,
                by_default: true
            }]
        );
        assert!(s.discard_cache_die(&settings, None).is_err());
    }

    #[test]
    fn a_o10_an_overflow_left_unanswered_discards_the_lowest_until_it_fits() {
        let settings = OreSettings::default();
        let mut s = comp_sheet(1, 1);
        s.comp.session_active = true;
        for face in [6, 2, 9] {
            s.cache.push(CacheDie {
                face,
                source: CacheSource::Loaded,
            });
        }
        let ev = s.discard_overflow(&settings);
        let discarded = |die, face| OreEvent::Discarded {
            die,
            face,
            by_default: true,
        };
        assert_eq!(
            ev,
            vec![
                discarded(CacheRef::Cache(1), 2),
                discarded(CacheRef::Cache(0), 6)
            ]
        );
        assert_eq!(s.cache.iter().map(|d| d.face).collect::<Vec<_>>(), [9]);
        assert!(s.discard_overflow(&settings).is_empty());
    }

    #[test]
    fn a_o11_fault_dice_count_toward_the_cache_only_when_set() {
        let mut settings = OreSettings::default();
        let mut s = comp_sheet(2, 1);
        s.comp.session_active = true;
        s.cache.push(CacheDie {
            face: 5,
            source: CacheSource::Boot,
        });
        s.fault_dice = vec![3, 8];
        assert_eq!(s.cache_excess(&settings), 0);
        let err = s
            .discard_cache_die(&settings, Some(CacheRef::Fault(0)))
            .unwrap_err();
        assert!(err.message.contains("not over its maximum"));
        settings.fault_counts_toward_cache = true;
        assert_eq!(s.cache_excess(&settings), 1);
        let before = s.clone();
        assert!(s
            .discard_cache_die(&settings, Some(CacheRef::Fault(5)))
            .is_err());
        assert_eq!(s, before, "nothing changes on error");
        let ev = s
            .discard_cache_die(&settings, Some(CacheRef::Fault(0)))
            .unwrap();
        assert_eq!(
            ev,
            vec![OreEvent::Discarded {
                die: CacheRef::Fault(0),
                face: 3,
                by_default: false
            }]
        );
        assert_eq!(s.fault_dice, vec![8]);
    }
}
