//! One click on a task, around its button's own file: [`Turn::open`]
//! checks who may press task buttons at all and loads the sheets; the
//! button's handler turns the click into a [`Step`]; [`Turn::finish`]
//! applies it to the rules core and hands the action pipeline its outcome
//! (the session, the changed sheets, the log record, the answer), which
//! it saves, logs and commits at once.

use rand::rngs::StdRng;

use super::menus::{names_menu, pay_menu};
use super::notes::{note_of, thrown_faces};
use super::{refresh, sync_roller};
use crate::app::component::Action;
use crate::app::pipeline::{Record, Shown};
use crate::app::{AppError, AppResult, Caller, Reply, Response, View};
use crate::rules::venus::sheet::SheetEvent;
use crate::rules::venus::task::{CloseKind, TaskAction, TaskEvent, TaskPhase, TaskState};
use crate::rules::venus::VenusCtx;
use crate::rules::Actor;
use crate::storage::sessions::{Session, Status};
use crate::systems::venus::buttons::TaskButton;
use crate::systems::venus::context::{actor, minutes, Outcome, Turn as Pipe};
use crate::systems::venus::party::Party;
use crate::systems::venus::record::{TaskInputs, TaskOutcomeRecord};
use crate::systems::venus::state::{TaskSession, VeState};
use crate::systems::venus::{changes, fc_words, task_view, GM};

/// A click on a task being handled: the transaction, the session, the
/// sheets it touches and who pressed.
pub struct Turn<'a> {
    /// The action's turn in the pipeline (its transaction, settings, rng).
    pub pipe: Pipe<'a>,
    /// The session as read in this transaction.
    pub session: Session,
    /// Its state, changed by the handler.
    pub st: TaskSession,
    /// The sheets of the roller and allies.
    pub party: Party,
    /// The clicker as the rules core's actor.
    pub a: Actor,
    /// Who clicked.
    pub caller: &'a Caller,
    /// The values picked in a menu (empty for a button).
    pub values: &'a [String],
    participant: bool,
    was_closed: bool,
    rng: StdRng,
}

/// What the answer to a task click is drawn from once saved.
struct Answer {
    id: i64,
    st: TaskSession,
    ctx: VenusCtx,
    was_closed: bool,
    whisper: Option<String>,
}

/// What a button asks of the rules core.
#[derive(Debug, Default)]
pub struct Step {
    /// The rules-core actions, applied in order.
    pub actions: Vec<TaskAction>,
    /// A private note for the clicker.
    pub whisper: Option<String>,
    /// The table's own state changed (a draft, a job, a note), so the
    /// message is redrawn even without a rules action.
    pub redraw: bool,
    /// Only the page of the KISS dice menu turned: save, redraw, nothing else.
    pub page: bool,
}

impl Step {
    /// These rules-core actions.
    pub fn rules(actions: Vec<TaskAction>) -> Self {
        Self {
            actions,
            ..Self::default()
        }
    }

    /// One rules-core action.
    pub fn one(action: TaskAction) -> Self {
        Self::rules(vec![action])
    }

    /// No rules action; the table's state changed.
    pub fn redraw() -> Self {
        Self {
            redraw: true,
            ..Self::default()
        }
    }
}

impl<'a> Turn<'a> {
    /// Checks who may press task buttons at all (the roller, their allies
    /// and the FC; anyone may offer aid), and loads the participants'
    /// sheets (a task whose roller's sheet is gone can only be voided or
    /// force-closed).
    pub async fn open(
        mut pipe: Pipe<'a>,
        session: Session,
        st: TaskSession,
        button: &TaskButton,
        values: &'a [String],
        caller: &'a Caller,
    ) -> Result<Turn<'a>, AppError> {
        let a = actor(&pipe);
        let participant = st.who(caller.user_id).is_some();
        let anyone = matches!(button, TaskButton::Offer | TaskButton::AidJob);
        if !(a.gm || participant || anyone) {
            return Err(AppError::user(format!(
                "Only {} (the roller), their allies and the FC can use this task's buttons.",
                st.roller.shown()
            )));
        }
        let party = Party::load(pipe.tx(), caller.guild_id, st.whos()).await?;
        let ends = matches!(button, TaskButton::Void | TaskButton::Force);
        if !party.has(st.roller.user) && !ends {
            return Err(AppError::user(format!(
                "{}'s character sheet is gone, so this task cannot go on: the FC can void it.",
                st.roller.shown()
            )));
        }
        let rng = pipe.rng();
        let was_closed = st.task.phase == TaskPhase::Closed;
        Ok(Turn {
            pipe,
            session,
            st,
            party,
            a,
            caller,
            values,
            participant,
            was_closed,
            rng,
        })
    }

    /// The clicker's user id.
    pub fn me(&self) -> i64 {
        self.caller.user_id
    }

    /// Whether the clicker is the roller or one of the allies.
    pub fn participant(&self) -> bool {
        self.participant
    }

    /// Whose KISSes the clicker declares: their own, or the roller's for
    /// the FC.
    pub fn by(&self) -> i64 {
        if self.participant {
            self.me()
        } else {
            self.st.task.roller
        }
    }

    /// Refuses anyone but the FC, naming who counts as the FC here
    /// ([`Pipe::require_gm`]).
    pub fn fc_only(&self, what: &str) -> Result<(), AppError> {
        self.pipe.require_gm(GM, what)
    }

    /// The value picked in the menu.
    pub fn value(&self) -> Result<String, AppError> {
        self.values
            .first()
            .cloned()
            .ok_or_else(|| AppError::user("Pick something in the menu."))
    }

    /// Applies `step`; the pipeline saves, logs `button`, commits and
    /// answers. A step that only turns the KISS menu's page picks nothing
    /// and rolls nothing: the task is saved and redrawn, and not logged;
    /// it waits on whom it waited on (no new ping).
    pub async fn finish(mut self, button: &TaskButton, step: Step) -> AppResult {
        let entry = if step.page {
            None
        } else {
            Some(self.play(button, &step).await?)
        };
        let status = status_of(&self.st);
        let answer = Answer {
            id: self.session.id,
            st: self.st.clone(),
            ctx: self.party.ctx.clone(),
            was_closed: self.was_closed,
            whisper: step.whisper,
        };
        let waited = super::waits::of(&self.st);
        let state = VeState::Task(Box::new(self.st));
        let minutes = minutes(&self.pipe);
        let draw = move |s: &Shown| answer.draw(s.number, s.version, status);
        let mut out = Outcome::new(draw).save(self.session, &state, status, minutes);
        if let Some(entry) = entry {
            out = out.log(entry);
        }
        for c in self.party.changed() {
            out = out.sheet(c);
        }
        if let Some((who, what)) = waited {
            out = out.waits_on(who, what);
        }
        self.pipe.finish(out).await
    }

    /// Plays `step` (pressed with `button`): applies it, notes what
    /// happened and brings the aid candidates and the KISS menus in step;
    /// its log entry.
    async fn play(&mut self, button: &TaskButton, step: &Step) -> Result<Record, AppError> {
        if step.actions.is_empty() && !step.redraw {
            return Err(AppError::user("There is nothing to do for that now."));
        }
        let events = self.apply(step)?;
        self.record(&events);
        if self.st.task.phase == TaskPhase::AidOffers {
            refresh(
                self.pipe.tx(),
                self.caller.guild_id,
                &mut self.st,
                &self.party.ctx,
            )
            .await?;
        } else {
            sync_roller(&mut self.st, &self.party.ctx);
        }
        // The KISS payment menus are offered in the KISS round only.
        let ctx = &self.party.ctx;
        (self.st.pay_menu, self.st.kiss_names) = match self.st.task.phase {
            TaskPhase::KissDeclaration => (pay_menu(&self.st, ctx), names_menu(&self.st, ctx)),
            _ => Default::default(),
        };
        Ok(self.entry(button, &step.actions, &events))
    }

    /// Applies the step's actions to the rules core (none on a refusal);
    /// when spending finishes, applies the result at once and leaves the
    /// FC a window to subvert one unbought secondary consequence, which
    /// changes no number (A-V15). A task rests in the rules' subversion
    /// phase only in that window (kept as `subversion_open`, the task
    /// closed), so reaching the phase is what says spending just finished
    /// (a task stored resting there before this is settled by the FC's
    /// subvert or skip, `spend::subvert`).
    fn apply(&mut self, step: &Step) -> Result<Vec<TaskEvent>, AppError> {
        let resting = self.st.task.phase == TaskPhase::GmSubversion;
        let (mut task, mut events) = (self.st.task.clone())
            .apply_all(&mut self.party.ctx, step.actions.clone(), &mut self.rng)
            .map_err(fc_words)?;
        // VE1-S4: once no beat is left to spend (the last one bought, or
        // none struck once the dice are final) there is nothing left to
        // decide, so spending finishes by itself (unless the exp of a Lot
        // over 10 still needs its job chosen).
        if task.phase == TaskPhase::Spending && task.beats_left() == 0 {
            let jobs = task.overflow_jobs(&self.party.ctx);
            if jobs.len() <= 1 {
                let done = TaskAction::FinishSpending {
                    actor: self.a,
                    overflow_job: jobs.into_iter().next(),
                };
                task = self.rule(task, done, &mut events)?;
            }
        }
        if task.phase == TaskPhase::GmSubversion && !resting {
            let skip = TaskAction::SkipSubversion {
                actor: Actor {
                    id: self.a.id,
                    gm: true,
                },
            };
            let mut skipped = Vec::new();
            task = self.rule(task, skip, &mut skipped)?;
            events.extend(
                skipped
                    .into_iter()
                    .filter(|e| !matches!(e, TaskEvent::SubversionSkipped)),
            );
            self.st.subversion_open = true;
        }
        self.st.task = task;
        Ok(events)
    }

    /// Applies one rules-core action to `task` and the party's sheets,
    /// adding its events to `events`; a refusal in the FC's words.
    fn rule(
        &mut self,
        task: TaskState,
        action: TaskAction,
        events: &mut Vec<TaskEvent>,
    ) -> Result<TaskState, AppError> {
        let (task, ev) = task
            .apply(&mut self.party.ctx, action, &mut self.rng)
            .map_err(fc_words)?;
        events.extend(ev);
        Ok(task)
    }

    /// Notes what happened: sheet changes, the footer, the KISS drafts
    /// still open.
    fn record(&mut self, events: &[TaskEvent]) {
        let st = &mut self.st;
        let named: Vec<(String, SheetEvent)> = events
            .iter()
            .filter_map(|e| match e {
                TaskEvent::Sheet { who, event } => Some((st.name_of(*who), event.clone())),
                _ => None,
            })
            .collect();
        st.changes.extend(changes::lines(&named));
        let clicker = st
            .who(self.caller.user_id)
            .map(|w| w.name.clone())
            .unwrap_or_else(|| self.caller.name.clone());
        if let Some(n) = note_of(st, &clicker, events) {
            st.note = Some(n);
        }
        if st.task.phase == TaskPhase::KissDeclaration {
            let declared: Vec<u32> = st.task.kisses.iter().map(|k| k.die).collect();
            for d in st.drafts.values_mut() {
                d.retain(|x| !declared.contains(x));
            }
            st.drafts.retain(|_, d| !d.is_empty());
        } else {
            st.drafts.clear();
        }
    }

    /// The click's log entry, `task_<action word>`.
    fn entry(&self, button: &TaskButton, actions: &[TaskAction], events: &[TaskEvent]) -> Record {
        let st = &self.st;
        let inputs = TaskInputs {
            actions: actions.to_vec(),
            values: self.values.to_vec(),
        };
        let outcome = TaskOutcomeRecord {
            events: events.to_vec(),
            phase: Some(st.task.phase),
            outcome: st.task.outcome.clone(),
        };
        Record::new(&format!("task_{}", button.encode().0), &inputs, &outcome)
            .dice(&st.task.dice, thrown_faces(&st.task, events))
            .on_session()
            .character(st.roller.character)
    }
}

impl Answer {
    /// The updated message (`number`: the task's as its readers see it),
    /// the clicker's private note, and the "after the task" summary when
    /// the task just ended with an outcome.
    fn draw(self, number: i64, version: i64, status: Status) -> Response {
        let st = &self.st;
        let mut response = Response::update(task_view::view(self.id, number, version, status, st));
        if let Some(w) = self.whisper {
            response = response.then(Reply::Ephemeral(View::text(w)));
        }
        let just_closed = !self.was_closed
            && st.task.phase == TaskPhase::Closed
            && st.task.close_kind != Some(CloseKind::Voided);
        if just_closed && st.task.outcome.is_some() {
            response = response.then(Reply::Message(task_view::summary(st, &self.ctx)));
        }
        response
    }
}

/// The status a task session is stored with.
fn status_of(st: &TaskSession) -> Status {
    match (st.task.phase, st.task.close_kind) {
        (TaskPhase::Closed, Some(CloseKind::Voided)) => Status::Voided,
        (TaskPhase::Closed, _) if st.subversion_open => Status::Open,
        (TaskPhase::Closed, _) => Status::Closed,
        _ => Status::Open,
    }
}
