//! Edition-1 beat spending (VE1-S1..S6, A-V13, A-V14) and the GM's
//! subversion of one unbought secondary consequence (VE1-S5, A-V15).

use super::{
    may_act_as, need_gm, Bought, CloseKind, Purchase, TaskEvent, TaskPhase, TaskState, SECONDARY,
    TERTIARY,
};
use crate::rules::venus::settings::LotOverflow;
use crate::rules::venus::sheet::{same, VenusCtx};
use crate::rules::{Actor, RuleError};

impl TaskState {
    fn bought_count(&self, item: Purchase) -> usize {
        self.purchases.iter().filter(|b| b.item == item).count()
    }

    /// Beats `item` costs: the threshold for the primary, 1 otherwise (VE1-S1..S3).
    pub fn cost_of(&self, item: Purchase) -> u32 {
        match item {
            Purchase::Primary => self.threshold,
            _ => 1,
        }
    }

    /// The text of `item`, reading custom consequences from the roller's sheet.
    pub fn purchase_text(&self, ctx: &VenusCtx, item: Purchase) -> Result<String, RuleError> {
        match item {
            Purchase::Primary => Ok("Primary consequence (success)".to_string()),
            Purchase::Secondary(n) if (1..=4).contains(&n) => {
                Ok(format!("S{n}: {}", SECONDARY[n as usize - 1]))
            }
            Purchase::Tertiary(n) if (1..=4).contains(&n) => {
                Ok(format!("T{n}: {}", TERTIARY[n as usize - 1]))
            }
            Purchase::Secondary(_) | Purchase::Tertiary(_) => Err(RuleError::new(
                "Secondary and tertiary consequences are numbered 1 to 4.",
            )),
            Purchase::Custom(i) => ctx
                .sheet(self.roller)?
                .custom_consequences
                .get(i)
                .map(|t| format!("Special: {t}"))
                .ok_or_else(|| RuleError::new("There is no custom consequence at that position.")),
        }
    }

    /// Whether `item` may be bought again once bought: any but the primary,
    /// under the house rule (A-V13).
    fn repeatable(&self, item: Purchase) -> bool {
        self.settings.ve1_consequence_repeat && item != Purchase::Primary
    }

    /// Whether `item` is affordable with the beats left and not bought yet
    /// (or repeatable, A-V13): what the spending menu offers (VE1-S1..S3).
    pub fn can_buy(&self, item: Purchase) -> bool {
        (self.repeatable(item) || self.bought_count(item) == 0)
            && self.cost_of(item) <= self.beats_left()
    }

    /// Why `item` cannot be bought now, if it cannot.
    fn purchase_problem(&self, ctx: &VenusCtx, item: Purchase) -> Option<RuleError> {
        if let Err(e) = self.purchase_text(ctx, item) {
            return Some(e);
        }
        if !self.repeatable(item) && self.bought_count(item) > 0 {
            return Some(RuleError::new(
                "Each consequence can be bought only once per task.",
            ));
        }
        let cost = self.cost_of(item);
        let left = self.beats_left();
        if cost > left {
            return Some(RuleError::new(format!(
                "That costs {cost} beat{} and you have {left} left.",
                if cost == 1 { "" } else { "s" }
            )));
        }
        None
    }

    /// VE1: everything the roller could buy now (empty outside spending).
    pub fn buyable(&self, ctx: &VenusCtx) -> Vec<Purchase> {
        if self.phase != TaskPhase::Spending {
            return Vec::new();
        }
        let customs = ctx
            .sheets
            .get(&self.roller)
            .map(|s| s.custom_consequences.len())
            .unwrap_or(0);
        let mut all = vec![Purchase::Primary];
        all.extend((1..=4).map(Purchase::Secondary));
        all.extend((1..=4).map(Purchase::Tertiary));
        all.extend((0..customs).map(Purchase::Custom));
        all.into_iter()
            .filter(|&p| self.purchase_problem(ctx, p).is_none())
            .collect()
    }

    /// While spending, when the T3 Lots bought would pass the cap of 10
    /// and become exp (VE1-R1, A-V7): the roller's jobs that could take it,
    /// the job used first, then the others in sheet order (a job being
    /// learned counts once it is on the sheet, or as the task's job).
    /// Empty otherwise, or when the overflow is discarded.
    pub fn overflow_jobs(&self, ctx: &VenusCtx) -> Vec<String> {
        if self.phase != TaskPhase::Spending
            || self.settings.ve_lot_overflow == LotOverflow::Discard
        {
            return Vec::new();
        }
        let lots = self.bought_count(Purchase::Tertiary(3)) as u32;
        let Some(sheet) = ctx.sheets.get(&self.roller) else {
            return Vec::new();
        };
        if lots == 0 || sheet.overflow_count(lots, &self.settings) == 0 {
            return Vec::new();
        }
        let mut jobs: Vec<String> = Vec::new();
        match sheet.job_key(&self.job) {
            Some(k) if sheet.can_take_overflow(k) => jobs.push(k.to_string()),
            None if self.learn_inherits.is_some() => jobs.push(self.job.clone()),
            _ => {}
        }
        for k in sheet.jobs.keys() {
            if sheet.can_take_overflow(k) && !jobs.iter().any(|j| same(j, k)) {
                jobs.push(k.clone());
            }
        }
        jobs
    }

    /// VE1: whether the primary consequence has been bought.
    pub fn primary_bought(&self) -> bool {
        self.bought_count(Purchase::Primary) > 0
    }

    /// Refuses outside the spending step, and anyone but the roller (the
    /// GM may still end the spending, but never chooses what is bought:
    /// "the choice of how to spend these beats is entirely yours").
    fn need_spending(&self, actor: Actor, roller_only: bool) -> Result<(), RuleError> {
        if self.phase != TaskPhase::Spending {
            return Err(RuleError::new(
                "Beats can only be spent in the spending step.",
            ));
        }
        if roller_only && actor.id != self.roller {
            return Err(RuleError::new(
                "Only the roller chooses how to spend the beats.",
            ));
        }
        if !may_act_as(actor, self.roller) {
            return Err(RuleError::new(
                "Only the roller (or the GM) spends the beats.",
            ));
        }
        Ok(())
    }

    pub(super) fn buy(
        &mut self,
        ctx: &VenusCtx,
        actor: Actor,
        item: Purchase,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_spending(actor, true)?;
        if let Some(e) = self.purchase_problem(ctx, item) {
            return Err(e);
        }
        let cost = self.cost_of(item);
        let text = self.purchase_text(ctx, item)?;
        self.purchases.push(Bought { item, cost, text });
        ev.push(TaskEvent::Bought {
            item,
            cost,
            beats_left: self.beats_left(),
        });
        Ok(())
    }

    pub(super) fn refund(
        &mut self,
        actor: Actor,
        item: Purchase,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_spending(actor, true)?;
        let i = self
            .purchases
            .iter()
            .rposition(|b| b.item == item)
            .ok_or_else(|| RuleError::new("That consequence has not been bought."))?;
        self.purchases.remove(i);
        ev.push(TaskEvent::Refunded {
            item,
            beats_left: self.beats_left(),
        });
        Ok(())
    }

    pub(super) fn finish_spending(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        overflow_job: Option<String>,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        self.need_spending(actor, false)?;
        if let Some(job) = overflow_job {
            let sheet = ctx.sheet(self.roller)?;
            let key = match sheet.job_key(&job) {
                Some(k) => {
                    if !sheet.can_take_overflow(k) {
                        return Err(RuleError::new(format!(
                            "{k} cannot earn exp until its qualifications are met: choose another job."
                        )));
                    }
                    k.to_string()
                }
                None if self.learn_inherits.is_some()
                    && crate::rules::venus::sheet::same(&job, &self.job) =>
                {
                    self.job.clone()
                }
                None => {
                    return Err(sheet.no_job(&job));
                }
            };
            self.overflow_job = Some(key);
        }
        ev.push(TaskEvent::SpendingFinished {
            beats_lost: self.beats_left(),
        });
        if (1..=4).all(|n| self.bought_count(Purchase::Secondary(n)) > 0) {
            return self.close(ctx, CloseKind::Normal, ev);
        }
        self.phase = TaskPhase::GmSubversion;
        Ok(())
    }

    /// VE1: the secondary consequences the GM could subvert now.
    pub fn subvertible(&self) -> Vec<u8> {
        if self.phase != TaskPhase::GmSubversion {
            return Vec::new();
        }
        self.unbought_secondaries()
    }

    /// VE1: the secondary consequences the roller did not buy (VE1-S5).
    pub fn unbought_secondaries(&self) -> Vec<u8> {
        (1..=4)
            .filter(|&n| self.bought_count(Purchase::Secondary(n)) == 0)
            .collect()
    }

    pub(super) fn subvert(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        secondary: Option<u8>,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        if self.phase != TaskPhase::GmSubversion {
            return Err(RuleError::new(
                "Subversion comes after all beats are spent.",
            ));
        }
        need_gm(actor)?;
        match secondary {
            Some(n) => {
                if !(1..=4).contains(&n) {
                    return Err(RuleError::new(
                        "Secondary consequences are numbered 1 to 4.",
                    ));
                }
                if self.bought_count(Purchase::Secondary(n)) > 0 {
                    return Err(RuleError::new(
                        "Only a secondary consequence the roller did not buy can be subverted.",
                    ));
                }
                self.subversion = Some(n);
                ev.push(TaskEvent::Subverted { secondary: n });
            }
            None => ev.push(TaskEvent::SubversionSkipped),
        }
        self.close(ctx, CloseKind::Normal, ev)
    }
}
