//! Combat helpers (VV-9..VV-11): Outthink and Initiative rolls for several
//! entities with tie-breaks (A-O14), the Call-phase and Resolution-phase
//! orders (A-O15), reactions and Prediction (A-O16), ranges and movement
//! (VV-9, A-O22).

use super::sets::{read, Set};
use super::settings::{InitiativeOrder, OreSettings, PowerPenalty, TieBreak};
use super::sheet::{OreSheet, Stat, World};
use crate::rules::dice::pool;
use crate::rules::RuleError;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The most entities one order roll takes.
pub const MAX_ENTRANTS: usize = 100;
/// How many re-roll rounds a tie may take before input order decides.
pub const MAX_TIE_REROLLS: u32 = 20;

/// Which combat-start roll (VV-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderKind {
    /// Prediction phase: Wit, giving the Outthink value.
    Outthink,
    /// Initiative phase: Agility, or Precision in cosmOS.
    Initiative,
}

impl OrderKind {
    /// The stat this roll uses in `world`: Wit for Outthink; Agility, or
    /// Precision in cosmOS, for Initiative (VV-10).
    pub fn stat(self, world: World) -> Stat {
        match self {
            OrderKind::Outthink => Stat::Wit,
            OrderKind::Initiative => world.initiative_stat(),
        }
    }
}

/// One entity taking part in an order roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The entity's id (the application's character or NPC id).
    pub id: i64,
    /// The stat rolled (its value is the pool; it also breaks ties, A-O14).
    pub stat: u32,
    /// True while the entity has the −1 Power penalty (A-O19).
    pub power_penalty: bool,
}

impl Entrant {
    /// The entrant for a sheet: Wit for Outthink; Agility, or Precision in
    /// cosmOS, for Initiative (VV-10).
    pub fn from_sheet(id: i64, sheet: &OreSheet, kind: OrderKind) -> Self {
        Self::rolling(id, sheet, kind.stat(sheet.world))
    }

    /// The entrant for a sheet rolling `stat` (with its −1 Power penalty).
    pub fn rolling(id: i64, sheet: &OreSheet, stat: Stat) -> Self {
        Entrant {
            id,
            stat: sheet.stats.get(stat),
            power_penalty: sheet.combat.power_penalty,
        }
    }
}

/// One entity's roll in an order roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderEntry {
    /// The entity's id.
    pub id: i64,
    /// Its stat.
    pub stat: u32,
    /// Dice rolled (stat, capped at `vv_max_pool`, −1 under the Power penalty).
    pub pool: u32,
    /// The faces.
    pub faces: Vec<u32>,
    /// The best set, or the highest loose die as width 1; `None` for no dice.
    pub best: Option<Set>,
    /// The value: best set value, or 10 + highest face (VV-4, A-O5).
    pub value: u32,
}

/// A re-roll between tied entities (A-O14), for display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieReroll {
    /// The entity's id.
    pub id: i64,
    /// The faces re-rolled.
    pub faces: Vec<u32>,
    /// The new value (used only to order the tie).
    pub value: u32,
}

/// How one tie was broken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreakRecord {
    /// The value they tied on.
    pub value: u32,
    /// The ids tied, in input order.
    pub ids: Vec<i64>,
    /// True if the higher stat decided (at least partly).
    pub by_stat: bool,
    /// Every re-roll round, in order.
    pub rerolls: Vec<Vec<TieReroll>>,
    /// True if re-rolls could not decide and input order was used.
    pub fell_back_to_input_order: bool,
}

/// The result of an Outthink or Initiative roll for several entities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderRoll {
    /// Which roll.
    pub kind: OrderKind,
    /// Every entity's roll, in input order.
    pub entries: Vec<OrderEntry>,
    /// Ids from best to worst value, ties broken (A-O14).
    pub ranking: Vec<i64>,
    /// How ties were broken.
    pub ties: Vec<TieBreakRecord>,
    /// Warnings (pools capped, …).
    pub warnings: Vec<String>,
}

impl OrderRoll {
    /// One entity's value.
    pub fn value_of(&self, id: i64) -> Option<u32> {
        self.entries.iter().find(|e| e.id == id).map(|e| e.value)
    }

    /// The dice this roll generated: every entity's pool and every tie
    /// re-roll (A-O14); the table bounds it.
    pub fn dice_generated(&self) -> usize {
        let rerolled = self.ties.iter().flat_map(|t| t.rerolls.iter().flatten());
        self.entries.iter().map(|e| e.faces.len()).sum::<usize>()
            + rerolled.map(|r| r.faces.len()).sum::<usize>()
    }

    /// Stores one entity's value on its sheet: `combat.outthink` or
    /// `combat.initiative`, per the roll's kind. False if the id did not roll.
    pub fn record_on(&self, id: i64, sheet: &mut OreSheet) -> bool {
        let Some(v) = self.value_of(id) else {
            return false;
        };
        match self.kind {
            OrderKind::Outthink => sheet.combat.outthink = Some(v),
            OrderKind::Initiative => sheet.combat.initiative = Some(v),
        }
        true
    }

    /// The Call-phase order (VV-11): ascending Outthink, worst first.
    pub fn call_order(&self) -> Vec<i64> {
        self.ranking.iter().rev().copied().collect()
    }

    /// The Resolution-phase order (VV-11, A-O15): highest Initiative first,
    /// or lowest first with `vv_initiative_order` = ascending.
    pub fn resolution_order(&self, settings: &OreSettings) -> Vec<i64> {
        match settings.initiative_order {
            InitiativeOrder::Descending => self.ranking.clone(),
            InitiativeOrder::Ascending => self.call_order(),
        }
    }
}

/// The dice an entrant rolls: its stat, capped at `vv_max_pool`, one fewer
/// under the −1 Power penalty (A-O19).
fn pool_size(e: &Entrant, settings: &OreSettings) -> u32 {
    let cap = settings
        .max_pool
        .clamp(1, super::settings::MAX_SUPPORTED_POOL);
    let n = e.stat.min(cap);
    if e.power_penalty && settings.power_penalty == PowerPenalty::MinusOneDie {
        n.saturating_sub(1)
    } else {
        n
    }
}

fn roll_entry<R: Rng + ?Sized>(
    e: &Entrant,
    settings: &OreSettings,
    rng: &mut R,
) -> (u32, Vec<u32>) {
    let n = pool_size(e, settings);
    (n, pool(rng, n as usize, 10))
}

/// Rolls Outthink (Wit) or Initiative (Agility/Precision) for every entrant
/// (VV-10) and ranks them, breaking ties per `vv_tie_break` (A-O14): higher
/// stat first, then re-rolls between those still tied (or re-rolls only).
pub fn roll_order<R: Rng + ?Sized>(
    kind: OrderKind,
    entrants: &[Entrant],
    settings: &OreSettings,
    rng: &mut R,
) -> Result<OrderRoll, RuleError> {
    check_entrants(entrants)?;
    let (entries, warnings) = roll_entries(entrants, settings, rng);
    // Group by value, best first, keeping input order inside a group.
    let mut idx: Vec<usize> = (0..entries.len()).collect();
    idx.sort_by(|&a, &b| entries[b].value.cmp(&entries[a].value).then(a.cmp(&b)));
    let mut ranking = Vec::with_capacity(idx.len());
    let mut ties = Vec::new();
    let mut k = 0;
    while k < idx.len() {
        let value = entries[idx[k]].value;
        let end = idx[k..]
            .iter()
            .position(|&i| entries[i].value != value)
            .map_or(idx.len(), |p| k + p);
        let group = &idx[k..end];
        k = end;
        if let [one] = group {
            ranking.push(entries[*one].id);
            continue;
        }
        let (ordered, record) = break_tie(group, &entries, entrants, settings, rng);
        ranking.extend(ordered);
        ties.push(record);
    }
    Ok(OrderRoll {
        kind,
        entries,
        ranking,
        ties,
        warnings,
    })
}

/// Refuses too many entrants, or one listed twice.
fn check_entrants(entrants: &[Entrant]) -> Result<(), RuleError> {
    if entrants.len() > MAX_ENTRANTS {
        return Err(RuleError::new(format!(
            "At most {MAX_ENTRANTS} entities can roll together."
        )));
    }
    for (k, e) in entrants.iter().enumerate() {
        if entrants[..k].iter().any(|o| o.id == e.id) {
            return Err(RuleError::new("The same entity is listed twice."));
        }
    }
    Ok(())
}

/// Every entrant's roll, read (in input order), and a warning for each
/// pool cut to `vv_max_pool`.
fn roll_entries<R: Rng + ?Sized>(
    entrants: &[Entrant],
    settings: &OreSettings,
    rng: &mut R,
) -> (Vec<OrderEntry>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut entries = Vec::with_capacity(entrants.len());
    for e in entrants {
        let (n, faces) = roll_entry(e, settings, rng);
        if e.stat > settings.max_pool {
            warnings.push(format!(
                "Entity {} has {} dice but rolls at most {} (vv_max_pool).",
                e.id, e.stat, settings.max_pool
            ));
        }
        let reading = read(&faces);
        entries.push(OrderEntry {
            id: e.id,
            stat: e.stat,
            pool: n,
            best: reading.best_group(),
            value: reading.value(),
            faces,
        });
    }
    (entries, warnings)
}

/// Orders a `group` of entries tied on their value (positions into
/// `entries`, in input order) per `vv_tie_break` (A-O14): by stat first
/// when the house rule says so, then by re-rolls between those still
/// tied; their ids in order, and the record of how.
fn break_tie<R: Rng + ?Sized>(
    group: &[usize],
    entries: &[OrderEntry],
    entrants: &[Entrant],
    settings: &OreSettings,
    rng: &mut R,
) -> (Vec<i64>, TieBreakRecord) {
    let mut record = TieBreakRecord {
        value: entries[group[0]].value,
        ids: group.iter().map(|&i| entries[i].id).collect(),
        by_stat: false,
        rerolls: Vec::new(),
        fell_back_to_input_order: false,
    };
    let mut subgroups: Vec<Vec<usize>> = vec![group.to_vec()];
    if settings.tie_break == TieBreak::StatThenReroll {
        let mut by_stat = group.to_vec();
        by_stat.sort_by(|&a, &b| entries[b].stat.cmp(&entries[a].stat).then(a.cmp(&b)));
        subgroups = Vec::new();
        for i in by_stat {
            match subgroups.last_mut() {
                Some(last) if entries[last[0]].stat == entries[i].stat => last.push(i),
                _ => subgroups.push(vec![i]),
            }
        }
        record.by_stat = subgroups.len() > 1;
    }
    let mut ranking = Vec::new();
    for sub in subgroups {
        let ordered = reroll_ties(&sub, entrants, settings, rng, &mut record);
        ranking.extend(ordered.into_iter().map(|i| entries[i].id));
    }
    (ranking, record)
}

/// Orders tied entrants (positions into `entrants`) by re-rolling them,
/// round after round, until no ties remain or the limit is reached.
fn reroll_ties<R: Rng + ?Sized>(
    group: &[usize],
    entrants: &[Entrant],
    settings: &OreSettings,
    rng: &mut R,
    record: &mut TieBreakRecord,
) -> Vec<usize> {
    // A work list of still-tied groups, resolved in order into `out`.
    let mut out = Vec::with_capacity(group.len());
    let mut stack: Vec<Vec<usize>> = vec![group.to_vec()];
    let mut rounds = 0u32;
    while let Some(g) = stack.pop() {
        if g.len() <= 1 {
            out.extend(g);
            continue;
        }
        let all_empty = g.iter().all(|&i| pool_size(&entrants[i], settings) == 0);
        if rounds >= MAX_TIE_REROLLS || all_empty {
            record.fell_back_to_input_order = true;
            let mut g = g;
            g.sort_unstable();
            out.extend(g);
            continue;
        }
        rounds += 1;
        let mut round = Vec::with_capacity(g.len());
        let mut values = Vec::with_capacity(g.len());
        for &i in &g {
            let (_, faces) = roll_entry(&entrants[i], settings, rng);
            let value = read(&faces).value();
            values.push((i, value));
            round.push(TieReroll {
                id: entrants[i].id,
                faces,
                value,
            });
        }
        record.rerolls.push(round);
        values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        // Push sub-groups in reverse so the best is resolved first.
        let mut subs: Vec<(u32, Vec<usize>)> = Vec::new();
        for (i, v) in values {
            match subs.last_mut() {
                Some((last, members)) if *last == v => members.push(i),
                _ => subs.push((v, vec![i])),
            }
        }
        stack.extend(subs.into_iter().rev().map(|(_, members)| members));
    }
    out
}

/// True if an entity may react outside turn order (VV-11, A-O16): its
/// Outthink is higher than the Initiative of the entity whose turn it is.
pub fn can_react(reactor_outthink: u32, acting_initiative: u32) -> bool {
    reactor_outthink > acting_initiative
}

/// True if a Prediction ability (Sneak Attack, Dodge, Parry…) works against
/// a target: the user's Outthink is higher than the target's (VV-11).
pub fn prediction_works(user_outthink: u32, target_outthink: u32) -> bool {
    user_outthink > target_outthink
}

/// Action ranges (VV-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    /// Only the user.
    SelfOnly,
    /// Neighbouring squares.
    Close,
    /// Up to 3 squares.
    Short,
    /// Over 3 and up to 6 squares.
    Long,
}

/// Squares between two grid positions counting only horizontal and vertical
/// steps (VV-9: Manhattan distance).
pub fn distance(a: (i32, i32), b: (i32, i32)) -> u32 {
    a.0.abs_diff(b.0).saturating_add(a.1.abs_diff(b.1))
}

/// True if a target at `target` is within `range` of a user at `user`
/// (VV-9). Close means Manhattan distance 1: no diagonals, following "only
/// horizontal and vertical" (A-O22).
pub fn in_range(range: Range, user: (i32, i32), target: (i32, i32)) -> bool {
    let dist = distance(user, target);
    match range {
        Range::SelfOnly => dist == 0,
        Range::Close => dist == 1,
        Range::Short => (1..=3).contains(&dist),
        Range::Long => (4..=6).contains(&dist),
    }
}

/// Squares an entity may move this turn (VV-9): its Agility, +1 per Minor
/// action spent on moving, and +⌊Agility/2⌋ if its actions use Agility.
pub fn movement(agility: u32, minor_actions: u32, uses_agility: bool) -> u32 {
    let bonus = if uses_agility { agility / 2 } else { 0 };
    agility.saturating_add(minor_actions).saturating_add(bonus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn vv_10_outthink_rolls_wit_and_initiative_the_worlds_stat() {
        for w in [World::Physical, World::Veil, World::CosmOS] {
            assert_eq!(OrderKind::Outthink.stat(w), Stat::Wit);
        }
        assert_eq!(OrderKind::Initiative.stat(World::Physical), Stat::Agility);
        assert_eq!(OrderKind::Initiative.stat(World::Veil), Stat::Agility);
        assert_eq!(OrderKind::Initiative.stat(World::CosmOS), Stat::Precision);
        let mut sheet = OreSheet::new(crate::rules::ore::sheet::Stats::all(2));
        sheet.world = World::CosmOS;
        sheet.stats.precision = 5;
        assert_eq!(
            Entrant::from_sheet(4, &sheet, OrderKind::Initiative).stat,
            5
        );
    }

    #[test]
    fn vv_9_ranges_use_manhattan_distance() {
        assert_eq!(distance((0, 0), (2, -3)), 5);
        assert!(in_range(Range::SelfOnly, (1, 1), (1, 1)));
        assert!(in_range(Range::Close, (0, 0), (0, 1)));
        assert!(!in_range(Range::Close, (0, 0), (1, 1)), "no diagonals");
        assert!(in_range(Range::Short, (0, 0), (1, 2)));
        assert!(!in_range(Range::Short, (0, 0), (2, 2)));
        assert!(in_range(Range::Long, (0, 0), (2, 2)));
        assert!(in_range(Range::Long, (0, 0), (3, 3)));
        assert!(!in_range(Range::Long, (0, 0), (3, 4)));
        assert!(
            !in_range(Range::Long, (0, 0), (1, 2)),
            "3 is Short, not Long"
        );
        assert_eq!(
            distance((i32::MIN, i32::MIN), (i32::MAX, i32::MAX)),
            u32::MAX
        );
    }

    #[test]
    fn vv_9_movement_is_agility_plus_minor_plus_half_agility() {
        assert_eq!(movement(5, 0, false), 5);
        assert_eq!(movement(5, 1, false), 6);
        assert_eq!(movement(5, 1, true), 8);
        assert_eq!(movement(u32::MAX, 3, true), u32::MAX);
    }

    #[test]
    fn vv_11_a_o16_reactions_and_prediction_need_a_higher_outthink() {
        assert!(can_react(31, 26));
        assert!(!can_react(26, 26), "equal is not higher");
        assert!(!can_react(19, 26));
        assert!(prediction_works(37, 30));
        assert!(!prediction_works(30, 30));
    }

    #[test]
    fn vv_10_order_values_are_roll_values_and_rankings_follow_them() {
        let s = OreSettings::default();
        let entrants = [
            Entrant {
                id: 1,
                stat: 3,
                power_penalty: false,
            },
            Entrant {
                id: 2,
                stat: 6,
                power_penalty: false,
            },
            Entrant {
                id: 3,
                stat: 8,
                power_penalty: false,
            },
        ];
        let mut rng = StdRng::seed_from_u64(10);
        let r = roll_order(OrderKind::Outthink, &entrants, &s, &mut rng).unwrap();
        for e in &r.entries {
            assert_eq!(e.value, read(&e.faces).value());
            assert_eq!(e.faces.len() as u32, e.stat);
        }
        let values: Vec<u32> = r
            .ranking
            .iter()
            .map(|&id| r.value_of(id).unwrap())
            .collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        let call: Vec<u32> = r
            .call_order()
            .iter()
            .map(|&id| r.value_of(id).unwrap())
            .collect();
        assert!(
            call.windows(2).all(|w| w[0] <= w[1]),
            "call phase is ascending"
        );
        assert_eq!(r.resolution_order(&s), r.ranking);
        let mut asc = s.clone();
        asc.set("vv_initiative_order", "ascending").unwrap();
        assert_eq!(r.resolution_order(&asc), r.call_order());
    }

    #[test]
    fn a_o14_ties_go_to_the_higher_stat_then_a_reroll() {
        let s = OreSettings::default();
        // Zero-die pools always tie at value 0 and cannot re-roll: input order.
        let entrants = [
            Entrant {
                id: 7,
                stat: 0,
                power_penalty: false,
            },
            Entrant {
                id: 8,
                stat: 0,
                power_penalty: false,
            },
        ];
        let mut rng = StdRng::seed_from_u64(3);
        let r = roll_order(OrderKind::Initiative, &entrants, &s, &mut rng).unwrap();
        assert_eq!(r.ranking, vec![7, 8]);
        assert!(r.ties[0].fell_back_to_input_order);
        assert!(!r.ties[0].by_stat);

        // Both roll no dice (stat 1 with the -1 Power penalty, stat 0), so
        // both are worth 0: the higher stat goes first, no re-roll needed.
        let entrants = [
            Entrant {
                id: 2,
                stat: 0,
                power_penalty: false,
            },
            Entrant {
                id: 1,
                stat: 1,
                power_penalty: true,
            },
        ];
        let r = roll_order(OrderKind::Initiative, &entrants, &s, &mut rng).unwrap();
        assert_eq!(r.ranking, vec![1, 2]);
        assert!(r.ties[0].by_stat);
        assert!(r.ties[0].rerolls.is_empty());
        assert_eq!(r.call_order(), vec![2, 1]);
    }

    #[test]
    fn a_o14_seeded_tie_is_broken_by_stat_then_reroll() {
        // Search seeds for a tie between equal stats, so the re-roll path runs,
        // and between different stats, so the stat path runs.
        let s = OreSettings::default();
        let entrants = [
            Entrant {
                id: 1,
                stat: 1,
                power_penalty: false,
            },
            Entrant {
                id: 2,
                stat: 1,
                power_penalty: false,
            },
            Entrant {
                id: 3,
                stat: 2,
                power_penalty: false,
            },
        ];
        let mut saw_reroll = false;
        let mut saw_stat = false;
        for seed in 0..400 {
            let mut rng = StdRng::seed_from_u64(seed);
            let r = roll_order(OrderKind::Outthink, &entrants, &s, &mut rng).unwrap();
            // Pools of 1, 1 and 2 dice, and each re-roll's dice.
            let rerolled: usize = r
                .ties
                .iter()
                .flat_map(|t| t.rerolls.iter().flatten())
                .map(|x| x.faces.len())
                .sum();
            assert_eq!(r.dice_generated(), 4 + rerolled);
            for t in &r.ties {
                let pos = |id: i64| r.ranking.iter().position(|&x| x == id).unwrap();
                if t.ids.contains(&3) {
                    // Id 3 has the higher stat: it ranks above every id it tied with.
                    for &other in t.ids.iter().filter(|&&x| x != 3) {
                        assert!(pos(3) < pos(other));
                    }
                    assert!(t.by_stat);
                    saw_stat = true;
                }
                if t.ids.contains(&1) && t.ids.contains(&2) {
                    assert!(!t.rerolls.is_empty());
                    // The last re-roll round decided between 1 and 2.
                    let last = t.rerolls.last().unwrap();
                    let v = |id: i64| last.iter().find(|x| x.id == id).map(|x| x.value);
                    if let (Some(a), Some(b)) = (v(1), v(2)) {
                        assert_ne!(a, b);
                        let (winner, loser) = if a > b { (1, 2) } else { (2, 1) };
                        assert!(pos(winner) < pos(loser));
                    }
                    saw_reroll = true;
                }
            }
        }
        assert!(saw_reroll && saw_stat);
    }

    #[test]
    fn a_o14_reroll_mode_ignores_stats() {
        let mut s = OreSettings::default();
        s.set("vv_tie_break", "reroll").unwrap();
        let entrants = [
            Entrant {
                id: 1,
                stat: 1,
                power_penalty: false,
            },
            Entrant {
                id: 2,
                stat: 2,
                power_penalty: false,
            },
        ];
        let mut saw = false;
        for seed in 0..200 {
            let mut rng = StdRng::seed_from_u64(seed);
            let r = roll_order(OrderKind::Outthink, &entrants, &s, &mut rng).unwrap();
            if let Some(t) = r.ties.first() {
                assert!(!t.by_stat);
                assert!(!t.rerolls.is_empty());
                saw = true;
            }
        }
        assert!(saw);
    }

    #[test]
    fn order_rolls_reject_duplicates_and_cap_pools() {
        let s = OreSettings::default();
        let mut rng = StdRng::seed_from_u64(1);
        let dup = [
            Entrant {
                id: 1,
                stat: 3,
                power_penalty: false,
            },
            Entrant {
                id: 1,
                stat: 4,
                power_penalty: false,
            },
        ];
        assert!(roll_order(OrderKind::Outthink, &dup, &s, &mut rng).is_err());
        let big = [Entrant {
            id: 1,
            stat: 14,
            power_penalty: false,
        }];
        let r = roll_order(OrderKind::Outthink, &big, &s, &mut rng).unwrap();
        assert_eq!(r.entries[0].pool, 10);
        assert_eq!(r.warnings.len(), 1);
        let pen = [Entrant {
            id: 1,
            stat: 4,
            power_penalty: true,
        }];
        let r = roll_order(OrderKind::Initiative, &pen, &s, &mut rng).unwrap();
        assert_eq!(r.entries[0].pool, 3);
        assert!(roll_order(OrderKind::Outthink, &[], &s, &mut rng)
            .unwrap()
            .ranking
            .is_empty());
    }
}
