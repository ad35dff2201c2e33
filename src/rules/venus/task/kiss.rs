//! The KISS round (VE1-K1..K6, VE2-K1..K6) and Ego (VE1-K4b, VE2-T8):
//! declarations with per-source limits, approvals (VE-8), ally consent,
//! paying Lots and Ego, re-rolling every declared die together.

use rand::Rng;
use std::collections::BTreeMap;

use super::{
    may_act_as, need_gm, CloseKind, EgoMode, KissDecl, KissSource, Named, TaskDie, TaskEvent,
    TaskPhase, TaskState, MAX_SPECIALTIES,
};
use crate::rules::dice::d;
use crate::rules::venus::settings::{Edition, KissLimits};
use crate::rules::venus::sheet::{clean_note, clean_text, same, VenusCtx, VenusSheet};
use crate::rules::{Actor, RuleError};

impl TaskState {
    /// Whether per-character source limits apply (always in VE1; VE2 per `ve2_kiss_limits`).
    fn limits_apply(&self) -> bool {
        self.edition == Edition::One || self.settings.ve2_kiss_limits == KissLimits::Edition1
    }

    fn consented(&self, ally: i64) -> bool {
        self.accepted_allies()
            .any(|a| a.id == ally && a.consented_kiss)
    }

    /// The dice no KISS is declared on yet, in rolling order: each die is
    /// KISSed at most once per task (VE1-K2).
    pub fn undeclared_dice(&self) -> impl Iterator<Item = &TaskDie> {
        self.dice
            .iter()
            .filter(|d| !self.kisses.iter().any(|k| k.die == d.id))
    }

    /// Dice that `by` could still declare a KISS on now (VE1-K2, VE1-K5,
    /// VE2-K3): not yet declared, and their own (or, for the VE1 roller, an
    /// ally's die with that ally's consent).
    pub fn kissable_dice(&self, by: i64) -> Vec<u32> {
        if self.phase != TaskPhase::KissDeclaration || !self.participants().contains(&by) {
            return Vec::new();
        }
        self.undeclared_dice()
            .filter(|d| {
                d.owner == by
                    || (self.edition == Edition::One
                        && by == self.roller
                        && self.consented(d.owner))
            })
            .map(|d| d.id)
            .collect()
    }

    /// The dice the KISS round would re-roll now: every declared die, and
    /// with an edition-1 Ego re-roll declared, every die it adds.
    pub fn kiss_reroll_dice(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.kisses.iter().map(|k| k.die).collect();
        if self.ego_reroll_pending {
            ids.extend(self.ego_reroll_dice());
        }
        ids
    }

    /// Whether every KISS declared needs no one else's word before the
    /// re-roll (VE1-K1: declared together, then re-rolled together): none
    /// awaits the GM's approval (VE1-K4c), none is a stunt the GM may still
    /// veto (VE1-K4d).
    pub fn kisses_settled(&self) -> bool {
        self.kisses
            .iter()
            .all(|k| k.approved && !matches!(k.source, KissSource::Stunt))
    }

    /// The dice Ego mode (i) adds: every die that has not struck a beat and
    /// is not declared yet, an ally's only with their consent (VE1-K4b,
    /// VE1-K5, A-V11).
    fn ego_reroll_dice(&self) -> Vec<u32> {
        self.undeclared_dice()
            .filter(|d| !d.succeeds(self.edition))
            .filter(|d| d.owner == self.roller || self.consented(d.owner))
            .map(|d| d.id)
            .collect()
    }

    /// Declares one KISS during the KISS round (VE1-K1, VE2-K): the roller
    /// or an accepted ally, for a die they may KISS, from one source.
    pub(super) fn declare_kiss(
        &mut self,
        ctx: &VenusCtx,
        actor: Actor,
        by: i64,
        die: u32,
        source: KissSource,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.phase != TaskPhase::KissDeclaration {
            return Err(RuleError::new(
                "KISSes can only be declared during the KISS round.",
            ));
        }
        if !may_act_as(actor, by) {
            return Err(RuleError::new("You can only declare KISSes for yourself."));
        }
        if !self.participants().contains(&by) {
            return Err(RuleError::new(
                "Only the roller and accepted allies can KISS dice.",
            ));
        }
        self.check_kiss_die(by, die)?;
        let (source, approved) = self.kiss_source(ctx.sheet(by)?, by, source)?;
        let kiss = KissDecl {
            die,
            by,
            source,
            approved,
        };
        self.kisses.push(kiss.clone());
        ev.push(TaskEvent::KissDeclared { kiss });
        Ok(())
    }

    /// The KISSes `by` has declared so far in this task.
    fn kisses_by(&self, by: i64) -> impl Iterator<Item = &KissDecl> {
        self.kisses.iter().filter(move |k| k.by == by)
    }

    /// The attributes on `sheet` (specialties first, then disciplines,
    /// assets and natural merits: "up to four appropriate attributes",
    /// VE1-K4e) or its insights (VE1-K4c) that `by` has not yet KISSed with
    /// in this task, each once, in sheet order.
    pub fn unused_kiss_names(&self, sheet: &VenusSheet, by: i64, kind: Named) -> Vec<String> {
        let used = |text: &str| {
            self.kisses_by(by)
                .any(|k| matches!(k.source.named(), Some((n, t)) if n == kind && same(t, text)))
        };
        let a = &sheet.attributes;
        let all: Vec<&String> = match kind {
            Named::Specialty => {
                let lists = [&a.specialties, &a.disciplines, &a.assets, &a.merits];
                lists.into_iter().flatten().collect()
            }
            Named::Insight => sheet.insights.iter().map(|i| &i.text).collect(),
        };
        let mut free: Vec<String> = Vec::new();
        for t in all {
            if !t.trim().is_empty() && !used(t) && !free.iter().any(|f| same(f, t)) {
                free.push(t.clone());
            }
        }
        free
    }

    /// Whether `by` may KISS this die: it exists, is not KISSed yet (VE1-K2),
    /// and is their own, or in VE1 an ally's die the roller KISSes with the
    /// ally's consent (VE1-K5); in VE2 an ally KISSes their own die.
    fn check_kiss_die(&self, by: i64, die: u32) -> Result<(), RuleError> {
        let d = self
            .die(die)
            .ok_or_else(|| RuleError::new(format!("There is no die number {die}.")))?;
        if self.kisses.iter().any(|k| k.die == die) {
            return Err(RuleError::new(format!(
                "Die {die} is already being KISSed: each die can be KISSed once per task."
            )));
        }
        if d.owner != by {
            if by != self.roller {
                return Err(RuleError::new("An ally can only KISS their own die."));
            }
            match self.edition {
                Edition::Two => {
                    return Err(RuleError::new(
                        "In edition 2 you cannot KISS an ally's die; they can KISS it themselves.",
                    ))
                }
                Edition::One => {
                    if !self.consented(d.owner) {
                        return Err(RuleError::new(
                            "That die belongs to an ally: they must consent before you KISS it.",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// What a KISS costs and whether it stands approved, with the source's
    /// per-task limits (VE1-K4, VE2-K; approvals VE-8): a Lot per die while
    /// the sheet has Lots, one stunt per character; Ego is declared apart.
    fn kiss_source(
        &self,
        sheet: &VenusSheet,
        by: i64,
        source: KissSource,
    ) -> Result<(KissSource, bool), RuleError> {
        match source {
            KissSource::Ego => Err(RuleError::new(
                "Ego re-rolls every non-beat die at once: declare it with the Ego re-roll instead.",
            )),
            KissSource::Lot => {
                let pending = self
                    .kisses_by(by)
                    .filter(|k| k.source == KissSource::Lot)
                    .count() as u32;
                if sheet.lots <= pending {
                    return Err(RuleError::new(if sheet.lots == 0 {
                        format!("{} has no Lots left to spend.", sheet.name)
                    } else {
                        format!("{} has no more Lots to spend on KISSes.", sheet.name)
                    }));
                }
                Ok((KissSource::Lot, true))
            }
            KissSource::Stunt => {
                if self.limits_apply() && self.kisses_by(by).any(|k| k.source == KissSource::Stunt)
                {
                    return Err(RuleError::new(
                        "Each character can KISS only one die per task with a stunt.",
                    ));
                }
                Ok((KissSource::Stunt, true))
            }
            KissSource::Specialty { attribute } => self.specialty_kiss(by, &attribute),
            KissSource::Insight { insight } => self.insight_kiss(sheet, by, &insight),
        }
    }

    /// A specialty KISSes one die: each attribute once, at most 4 per
    /// character where the limits apply (VE1-K4e); approval per VE-8.
    fn specialty_kiss(&self, by: i64, attribute: &str) -> Result<(KissSource, bool), RuleError> {
        let attribute = clean_note("specialty", attribute)?;
        let used: Vec<&KissDecl> = self
            .kisses_by(by)
            .filter(|k| matches!(k.source, KissSource::Specialty { .. }))
            .collect();
        if used.iter().any(
            |k| matches!(&k.source, KissSource::Specialty { attribute: a } if same(a, &attribute)),
        ) {
            return Err(RuleError::new(
                "That specialty has already KISSed a die in this task.",
            ));
        }
        if self.limits_apply() && used.len() >= MAX_SPECIALTIES {
            return Err(RuleError::new(
                "At most 4 specialties per character can KISS dice in a task.",
            ));
        }
        Ok((
            KissSource::Specialty { attribute },
            !self.settings.ve_require_approval,
        ))
    }

    /// An insight KISSes one die, each insight once per task; with
    /// `ve_track_insights` it must be on the sheet, and one the GM already
    /// approved there needs no new approval (VE1-K4c, VE-8).
    fn insight_kiss(
        &self,
        sheet: &VenusSheet,
        by: i64,
        insight: &str,
    ) -> Result<(KissSource, bool), RuleError> {
        let text = clean_text("insight", insight)?;
        if text.is_empty() {
            return Err(RuleError::new("Say which insight you use."));
        }
        let (text, preapproved) = if self.settings.ve_track_insights {
            let i = sheet.find_insight(&text).ok_or_else(|| {
                RuleError::new(format!("That insight is not on {}'s sheet.", sheet.name))
            })?;
            (i.text.clone(), i.approved)
        } else {
            (text, false)
        };
        if self
            .kisses_by(by)
            .any(|k| matches!(&k.source, KissSource::Insight { insight: t } if same(t, &text)))
        {
            return Err(RuleError::new(
                "Each insight can KISS only one die per task.",
            ));
        }
        Ok((
            KissSource::Insight { insight: text },
            !self.settings.ve_require_approval || preapproved,
        ))
    }

    fn kiss_index(&self, die: u32) -> Result<usize, RuleError> {
        if self.phase != TaskPhase::KissDeclaration {
            return Err(RuleError::new("The KISS round is over."));
        }
        self.kisses
            .iter()
            .position(|k| k.die == die)
            .ok_or_else(|| RuleError::new(format!("No KISS is declared on die {die}.")))
    }

    pub(super) fn withdraw_kiss(
        &mut self,
        actor: Actor,
        die: u32,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let i = self.kiss_index(die)?;
        let by = self.kisses[i].by;
        if !may_act_as(actor, by) {
            return Err(RuleError::new(
                "Only whoever declared that KISS (or the GM) can withdraw it.",
            ));
        }
        self.kisses.remove(i);
        ev.push(TaskEvent::KissWithdrawn { die, by });
        Ok(())
    }

    pub(super) fn approve_kiss(
        &mut self,
        actor: Actor,
        die: u32,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        need_gm(actor)?;
        let i = self.kiss_index(die)?;
        self.kisses[i].approved = true;
        ev.push(TaskEvent::KissApproved { die });
        Ok(())
    }

    pub(super) fn veto_kiss(
        &mut self,
        actor: Actor,
        die: u32,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        need_gm(actor)?;
        let i = self.kiss_index(die)?;
        let k = self.kisses.remove(i);
        ev.push(TaskEvent::KissVetoed {
            die,
            by: k.by,
            source: k.source,
        });
        Ok(())
    }

    pub(super) fn consent_kiss(
        &mut self,
        actor: Actor,
        ally: i64,
        consent: bool,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.edition != Edition::One {
            return Err(RuleError::new(
                "In edition 2 allies KISS their own dice; the roller never KISSes them.",
            ));
        }
        if !matches!(
            self.phase,
            TaskPhase::AidOffers | TaskPhase::KissDeclaration
        ) {
            return Err(RuleError::new("The KISS round is over."));
        }
        if !may_act_as(actor, ally) {
            return Err(RuleError::new(
                "Only the ally themselves can consent to KISSes on their die.",
            ));
        }
        let i = self
            .allies
            .iter()
            .position(|a| a.id == ally && a.status.standing())
            .ok_or_else(|| RuleError::new("That participant is not aiding this task."))?;
        self.allies[i].consented_kiss = consent;
        ev.push(TaskEvent::KissConsent { ally, consent });
        if !consent {
            let roller = self.roller;
            let owned: Vec<u32> = self
                .dice
                .iter()
                .filter(|d| d.owner == ally)
                .map(|d| d.id)
                .collect();
            let dropped: Vec<u32> = self
                .kisses
                .iter()
                .filter(|k| k.by == roller && owned.contains(&k.die))
                .map(|k| k.die)
                .collect();
            self.kisses.retain(|k| !dropped.contains(&k.die));
            for die in dropped {
                ev.push(TaskEvent::KissWithdrawn { die, by: roller });
            }
        }
        Ok(())
    }

    pub(super) fn declare_ego_reroll(
        &mut self,
        ctx: &VenusCtx,
        actor: Actor,
        declare: bool,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.edition != Edition::One {
            return Err(RuleError::new(
                "In edition 2 Ego makes every 10 count twice; it is offered after the KISS round.",
            ));
        }
        if self.phase != TaskPhase::KissDeclaration {
            return Err(RuleError::new(
                "Ego re-rolls are declared during the KISS round.",
            ));
        }
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new(
                "Only the roller (or the GM) can spend the roller's Ego.",
            ));
        }
        if declare {
            if self.ego_mode != EgoMode::None || self.ego_reroll_pending {
                return Err(RuleError::new(
                    "Ego is spent once per task: only one Ego mode.",
                ));
            }
            let sheet = ctx.sheet(self.roller)?;
            if !sheet.ego {
                return Err(RuleError::new(format!("{} does not hold Ego.", sheet.name)));
            }
            self.ego_reroll_pending = true;
        } else {
            if !self.ego_reroll_pending {
                return Err(RuleError::new("No Ego re-roll is declared."));
            }
            self.ego_reroll_pending = false;
        }
        ev.push(TaskEvent::EgoRerollDeclared { declared: declare });
        Ok(())
    }

    pub(super) fn declare_double_sixes(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.edition != Edition::One {
            return Err(RuleError::new("Double 6s is an edition 1 Ego mode."));
        }
        let open = self.phase == TaskPhase::KissDeclaration
            || (self.phase == TaskPhase::Spending && self.purchases.is_empty());
        if !open {
            return Err(RuleError::new(
                "Double 6s must be chosen before spending begins.",
            ));
        }
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new(
                "Only the roller (or the GM) can spend the roller's Ego.",
            ));
        }
        if self.ego_mode != EgoMode::None || self.ego_reroll_pending {
            return Err(RuleError::new(
                "Ego is spent once per task: only one Ego mode.",
            ));
        }
        let e = ctx.sheet_mut(self.roller)?.spend_ego()?;
        ev.push(TaskEvent::Sheet {
            who: self.roller,
            event: e,
        });
        self.ego_spent_by = Some(self.roller);
        self.ego_mode = EgoMode::DoubleSixes;
        ev.push(TaskEvent::EgoUsed {
            who: self.roller,
            mode: EgoMode::DoubleSixes,
        });
        self.push_count(ev);
        Ok(())
    }

    /// Ends the KISS round (VE1-K1, VE2-K2): pays, re-rolls every declared
    /// die together, then spends beats (VE1) or closes on success or
    /// without Ego, else offers Ego (VE2-T6..T8).
    pub(super) fn roll_kisses<R: Rng + ?Sized>(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        rng: &mut R,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.phase != TaskPhase::KissDeclaration {
            return Err(RuleError::new("There is no KISS round to roll now."));
        }
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new(
                "Only the roller (or the GM) ends the KISS round.",
            ));
        }
        if let Some(k) = self.kisses.iter().find(|k| !k.approved) {
            return Err(RuleError::new(format!(
                "The KISS on die {} still awaits the GM's approval.",
                k.die
            )));
        }
        self.pay_kiss_lots(ctx, ev)?;
        if self.ego_reroll_pending {
            self.ego_reroll_all(ctx, ev)?;
        }
        let kissed = self.reroll_kissed(rng, ev)?;
        self.kiss_round_done = true;
        ev.push(TaskEvent::KissRoundEnded { kissed });
        self.push_count(ev);
        match self.edition {
            Edition::One => {
                self.phase = TaskPhase::Spending;
                Ok(())
            }
            Edition::Two => {
                let has_ego = ctx.sheet(self.roller).map(|s| s.ego).unwrap_or(false);
                if self.successes() >= self.threshold || !has_ego {
                    self.close(ctx, CloseKind::Normal, ev)
                } else {
                    self.phase = TaskPhase::EgoOffer;
                    Ok(())
                }
            }
        }
    }

    /// Pays the Lots declared as KISS sources, each payer from their own
    /// sheet, one Lot per die (VE1-K4a, VE2-K4).
    fn pay_kiss_lots(
        &mut self,
        ctx: &mut VenusCtx,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let mut lots: BTreeMap<i64, u32> = BTreeMap::new();
        for k in self.kisses.iter().filter(|k| k.source == KissSource::Lot) {
            *lots.entry(k.by).or_default() += 1;
        }
        for (&who, &n) in &lots {
            for e in ctx.sheet_mut(who)?.take_lots(n)? {
                ev.push(TaskEvent::Sheet { who, event: e });
            }
            *self.lots_spent.entry(who).or_default() += n;
        }
        Ok(())
    }

    /// Ego mode (i): spends the roller's Ego and KISSes every die that has
    /// not struck a beat and is not declared yet, an ally's only with their
    /// consent (VE1-K4b, VE1-K5, A-V11).
    fn ego_reroll_all(
        &mut self,
        ctx: &mut VenusCtx,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let e = ctx.sheet_mut(self.roller)?.spend_ego()?;
        ev.push(TaskEvent::Sheet {
            who: self.roller,
            event: e,
        });
        self.ego_spent_by = Some(self.roller);
        self.ego_mode = EgoMode::RerollAll;
        self.ego_reroll_pending = false;
        ev.push(TaskEvent::EgoUsed {
            who: self.roller,
            mode: EgoMode::RerollAll,
        });
        for die in self.ego_reroll_dice() {
            self.kisses.push(KissDecl {
                die,
                by: self.roller,
                source: KissSource::Ego,
                approved: true,
            });
        }
        Ok(())
    }

    /// Re-rolls every KISSed die together, in die order; the new face
    /// replaces the old even when worse (VE1-K3, VE2-K5), and on a magic
    /// task a re-rolled 10 explodes (VE2-K6). Returns how many were KISSed.
    fn reroll_kissed<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<u32, RuleError> {
        let mut order = self.kisses.clone();
        order.sort_by_key(|k| k.die);
        let sides = self.sides();
        for k in &order {
            let face = d(rng, sides);
            let die = self
                .dice
                .iter_mut()
                .find(|x| x.id == k.die)
                .ok_or_else(|| RuleError::new(format!("There is no die number {}.", k.die)))?;
            let from = die.face;
            die.face = face;
            die.history.push(face);
            die.kissed = true;
            die.kiss_source = Some(k.source.clone());
            die.kissed_by = Some(k.by);
            ev.push(TaskEvent::Kissed {
                die: k.die,
                owner: die.owner,
                by: k.by,
                source: k.source.clone(),
                from,
                to: face,
            });
        }
        // VE2-K6, A-V20: a re-rolled 10 explodes too.
        for k in &order {
            self.explode_from(rng, k.die, ev);
        }
        Ok(order.len() as u32)
    }

    pub(super) fn ego_offer(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        spend: bool,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.phase != TaskPhase::EgoOffer {
            return Err(RuleError::new("Ego is not on offer now."));
        }
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new(
                "Only the roller (or the GM) can spend the roller's Ego.",
            ));
        }
        if spend {
            let e = ctx.sheet_mut(self.roller)?.spend_ego()?;
            ev.push(TaskEvent::Sheet {
                who: self.roller,
                event: e,
            });
            self.ego_spent_by = Some(self.roller);
            self.ego_mode = EgoMode::TensDouble;
            ev.push(TaskEvent::EgoUsed {
                who: self.roller,
                mode: EgoMode::TensDouble,
            });
            self.push_count(ev);
        }
        self.close(ctx, CloseKind::Normal, ev)
    }
}
