//! Closing a task: the outcome (VE1-S1, VE2-T9, VE2-T11), exp and Lots in
//! the order of VE1-T8 / VE2-T9 and VE2-L1, then level-ups (VE1-L3..L5,
//! VE2-T10); and the GM's void and force-close.

use super::{
    need_gm, CloseKind, Crit, Purchase, SheetChange, TaskEvent, TaskOutcome, TaskPhase, TaskState,
};
use crate::rules::venus::settings::{Edition, LotOverflow};
use crate::rules::venus::sheet::{ExpReason, SheetEvent, VenusCtx};
use crate::rules::{Actor, RuleError};

impl TaskState {
    /// The outcome the task would have if it closed now.
    pub fn current_outcome(&self) -> TaskOutcome {
        let successes = self.successes();
        let threshold = self.threshold;
        match self.edition {
            Edition::One => {
                let success = self.primary_bought();
                TaskOutcome {
                    success,
                    successes,
                    threshold,
                    declined_primary: !success && successes >= threshold,
                    margin_percent: None,
                    crit: None,
                }
            }
            Edition::Two => {
                let success = successes >= threshold;
                let (margin_percent, crit) = if self.crits_active() {
                    // Rounded to the nearest percent, not cut.
                    let t = threshold.max(1);
                    let margin = successes.saturating_mul(100).saturating_add(t / 2) / t;
                    let crit = if successes >= threshold.saturating_mul(2) {
                        Some(Crit::Success)
                    } else if !success && successes.saturating_mul(2) <= threshold {
                        Some(Crit::Failure)
                    } else {
                        None
                    };
                    (Some(margin), crit)
                } else {
                    (None, None)
                };
                TaskOutcome {
                    success,
                    successes,
                    threshold,
                    declined_primary: false,
                    margin_percent,
                    crit,
                }
            }
        }
    }

    fn record(&mut self, who: i64, event: SheetEvent, ev: &mut Vec<TaskEvent>) {
        self.close_changes.push(SheetChange {
            who,
            event: event.clone(),
        });
        ev.push(TaskEvent::Sheet { who, event });
    }

    /// Adds 1 exp (no level-up yet); a job gone from the sheet is skipped.
    fn award(
        &mut self,
        ctx: &mut VenusCtx,
        who: i64,
        job: &str,
        reason: ExpReason,
        touched: &mut Vec<(i64, String)>,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let Some(sheet) = ctx.sheets.get_mut(&who) else {
            ev.push(TaskEvent::AwardSkipped {
                who,
                job: job.to_string(),
            });
            return Ok(());
        };
        let Some(key) = sheet.job_key(job).map(str::to_string) else {
            ev.push(TaskEvent::AwardSkipped {
                who,
                job: job.to_string(),
            });
            return Ok(());
        };
        let e = sheet.add_exp(&key, 1, reason)?;
        if !touched.iter().any(|(w, j)| *w == who && *j == key) {
            touched.push((who, key));
        }
        self.record(who, e, ev);
        Ok(())
    }

    /// VE1-T8 step 5: +1 Lot from T3, overflowing per `ve_lot_overflow`.
    fn grant_t3_lot(
        &mut self,
        ctx: &mut VenusCtx,
        touched: &mut Vec<(i64, String)>,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let roller = self.roller;
        let Some(sheet) = ctx.sheets.get_mut(&roller) else {
            return Ok(());
        };
        let job = self
            .overflow_job
            .clone()
            .filter(|j| sheet.can_take_overflow(j))
            .or_else(|| Some(self.job.clone()).filter(|j| sheet.can_take_overflow(j)));
        let mut settings = self.settings.clone();
        let overflows = sheet.overflow_count(1, &settings) > 0
            && settings.ve_lot_overflow != LotOverflow::Discard;
        if overflows && job.is_none() {
            ev.push(TaskEvent::OverflowLost);
            settings.ve_lot_overflow = LotOverflow::Discard;
        }
        let events = sheet.grant_lots(1, &settings, job.as_deref())?;
        if overflows {
            if let Some(j) = job.and_then(|j| sheet.job_key(&j).map(str::to_string)) {
                if !touched.iter().any(|(w, x)| *w == roller && *x == j) {
                    touched.push((roller, j));
                }
            }
        }
        for e in events {
            self.record(roller, e, ev);
        }
        Ok(())
    }

    /// Finishes the task: outcome, awards in rule order, level-ups.
    pub(super) fn close(
        &mut self,
        ctx: &mut VenusCtx,
        kind: CloseKind,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let outcome = self.current_outcome();
        ev.push(TaskEvent::Outcome {
            outcome: outcome.clone(),
        });
        let roller = self.roller;
        let job = self.job.clone();
        if let Some(inherits) = self.learn_inherits.clone() {
            if let Some(sheet) = ctx.sheets.get_mut(&roller) {
                if sheet.job(&job).is_none() && sheet.start_learning(&job, &inherits).is_ok() {
                    self.record(roller, SheetEvent::JobStarted { job: job.clone() }, ev);
                }
            }
        }
        let touched = self.award_close(ctx, outcome.success, ev)?;
        self.level_ups(ctx, touched, ev)?;
        self.outcome = Some(outcome);
        self.finish(kind, ev);
        Ok(())
    }

    /// Awards exp and Lots in rule order: VE1 failure, learning, "learned
    /// something", each ally's job, "true intentions" (VE1-T8); VE2 failure
    /// and allies' jobs, then learning (VE2-T9, VE2-L1). Returns every
    /// (character, job) that gained exp, to check for level-ups.
    fn award_close(
        &mut self,
        ctx: &mut VenusCtx,
        success: bool,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<Vec<(i64, String)>, RuleError> {
        let roller = self.roller;
        let job = self.job.clone();
        let mut touched: Vec<(i64, String)> = Vec::new();
        let allies: Vec<(i64, String)> = self
            .accepted_allies()
            .map(|a| (a.id, a.job.clone()))
            .collect();
        match self.edition {
            Edition::One => {
                if !success {
                    self.award(ctx, roller, &job, ExpReason::Failure, &mut touched, ev)?;
                }
                if self.learning {
                    self.award(ctx, roller, &job, ExpReason::Learning, &mut touched, ev)?;
                }
                let t2 = self
                    .purchases
                    .iter()
                    .filter(|b| b.item == Purchase::Tertiary(2))
                    .count();
                for _ in 0..t2 {
                    self.award(
                        ctx,
                        roller,
                        &job,
                        ExpReason::LearnedSomething,
                        &mut touched,
                        ev,
                    )?;
                }
                for (who, j) in &allies {
                    self.award(ctx, *who, j, ExpReason::AllyAid, &mut touched, ev)?;
                }
                let t3 = self
                    .purchases
                    .iter()
                    .filter(|b| b.item == Purchase::Tertiary(3))
                    .count();
                for _ in 0..t3 {
                    self.grant_t3_lot(ctx, &mut touched, ev)?;
                }
            }
            Edition::Two => {
                if !success {
                    self.award(ctx, roller, &job, ExpReason::Failure, &mut touched, ev)?;
                }
                if !success || self.settings.ve2_ally_exp_on_success {
                    for (who, j) in &allies {
                        self.award(ctx, *who, j, ExpReason::AllyAid, &mut touched, ev)?;
                    }
                }
                if self.learning {
                    self.award(ctx, roller, &job, ExpReason::Learning, &mut touched, ev)?;
                }
            }
        }
        Ok(touched)
    }

    /// Levels up every job that gained exp and reached its mark
    /// (VE1-L4, VE1-L5, VE2-T10, VE2-L1).
    fn level_ups(
        &mut self,
        ctx: &mut VenusCtx,
        touched: Vec<(i64, String)>,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        let settings = self.settings.clone();
        for (who, j) in touched {
            if let Some(sheet) = ctx.sheets.get_mut(&who) {
                if let Some(e) = sheet.apply_level_up(&j, &settings)? {
                    self.record(who, e, ev);
                }
            }
        }
        Ok(())
    }

    fn finish(&mut self, kind: CloseKind, ev: &mut Vec<TaskEvent>) {
        self.phase = TaskPhase::Closed;
        self.close_kind = Some(kind);
        ev.push(TaskEvent::Closed { kind });
    }

    pub(super) fn void(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        need_gm(actor)?;
        let spent: Vec<(i64, u32)> = self.lots_spent.iter().map(|(&w, &n)| (w, n)).collect();
        for (who, n) in spent {
            if let Some(sheet) = ctx.sheets.get_mut(&who) {
                for e in sheet.refund_lots(n) {
                    self.record(who, e, ev);
                }
            }
        }
        if let Some(who) = self.ego_spent_by {
            if let Some(e) = ctx.sheets.get_mut(&who).and_then(|s| s.refund_ego()) {
                self.record(who, e, ev);
            }
        }
        self.ego_reroll_pending = false;
        self.finish(CloseKind::Voided, ev);
        Ok(())
    }

    pub(super) fn force_close(
        &mut self,
        ctx: &mut VenusCtx,
        actor: Actor,
        ev: &mut Vec<TaskEvent>,
    ) -> Result<(), RuleError> {
        need_gm(actor)?;
        match self.phase {
            TaskPhase::AidOffers => {
                // Nothing was rolled: there is no result to apply.
                self.finish(CloseKind::ForceClosed, ev);
                Ok(())
            }
            TaskPhase::KissDeclaration => {
                for k in std::mem::take(&mut self.kisses) {
                    ev.push(TaskEvent::KissWithdrawn {
                        die: k.die,
                        by: k.by,
                    });
                }
                self.ego_reroll_pending = false;
                self.kiss_round_done = true;
                self.close(ctx, CloseKind::ForceClosed, ev)
            }
            _ => self.close(ctx, CloseKind::ForceClosed, ev),
        }
    }
}
