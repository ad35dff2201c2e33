//! The KISS round: the one-step "KISS: pick dice and how to pay" menu
//! (**kiss**: each value a die and its payment), and the older two-step
//! words still answered on messages drawn before (the "KISS dice" menu
//! **pick**, then **KISS with Lot/stunt/specialty/insight** or the
//! attribute or insight chosen in the "Pay with a specialty or insight"
//! menu for the first picked die); **Withdraw my KISSes**, an ally's
//! **Consent to KISS**, **Re-roll** (or **No KISS**), and the FC's
//! **Approve KISSes** and **Veto last KISS**.

use super::menus::{free_names, key_of, named_kind, value_of, words, VALUE_TEXT};
use super::turn::{Step, Turn};
use crate::app::view::clean;
use crate::app::AppError;
use crate::rules::venus::task::{KissSource, Named, TaskAction, TaskPhase, TaskState};
use crate::rules::venus::{Edition, VenusCtx};
use crate::systems::venus::buttons::Payment;
use crate::systems::venus::fc_words;
use crate::systems::venus::state::TaskSession;
use rand::SeedableRng;

/// Refuses a KISS menu's pick outside the KISS round; a page option turns
/// the menu's `page` and is the whole step.
fn kiss_menu(
    t: &mut Turn<'_>,
    page: fn(&mut TaskSession) -> &mut usize,
) -> Result<Option<Step>, AppError> {
    if t.st.task.phase != TaskPhase::KissDeclaration {
        return Err(AppError::user("KISSes are declared in the KISS round."));
    }
    Ok(crate::app::view::page_of(t.values).map(|p| {
        *page(&mut t.st) = p;
        Step {
            page: true,
            ..Step::default()
        }
    }))
}

/// `pick`: the dice the clicker picked, kept as a draft until paid for
/// (or a page of the menu turned).
pub fn pick(t: &mut Turn<'_>) -> Result<Step, AppError> {
    if let Some(step) = kiss_menu(t, |st| &mut st.kiss_page)? {
        return Ok(step);
    }
    let by = t.by();
    let allowed = t.st.task.kissable_dice(by);
    let mut dice = Vec::new();
    for v in t.values {
        let d: u32 = v
            .parse()
            .map_err(|_| AppError::user("That is not a die on the table."))?;
        if !allowed.contains(&d) {
            return Err(AppError::user(not_kissable(&t.st, by, d)));
        }
        if !dice.contains(&d) {
            dice.push(d);
        }
    }
    t.st.drafts.insert(t.me(), dice);
    t.st.note = Some(format!("{} picked dice to KISS", t.st.name_of(by)));
    Ok(Step::redraw())
}

/// Why `by` cannot KISS die `d`.
fn not_kissable(st: &TaskSession, by: i64, d: u32) -> String {
    let owner = st.task.die(d).map(|x| x.owner);
    match owner {
        None => format!("There is no die #{d}."),
        Some(_) if st.task.kisses.iter().any(|k| k.die == d) => {
            format!("Die #{d} is already being KISSed: each die once per task.")
        }
        Some(o) if o != by && st.task.edition == Edition::Two => format!(
            "Die #{d} is {}'s: in edition 2 only its owner can KISS it.",
            st.shown_of(o)
        ),
        Some(o) if o != by => format!(
            "Die #{d} is {}'s: {} must consent first (\"Consent to KISS\").",
            st.shown_of(o),
            st.shown_of(o)
        ),
        Some(_) => format!("You cannot KISS die #{d}."),
    }
}

/// `klot`, `kstunt`, `kspec`, `kins`: declares a KISS on each drafted die,
/// paid with `payment` (specialties and insights: the declarer's next
/// unused ones in sheet order). A refused payment drops the pick (the dice
/// are no longer pending, so no later payment takes them by surprise) and
/// says so.
pub fn pay(t: &mut Turn<'_>, payment: Payment) -> Result<Step, AppError> {
    let by = t.by();
    let dice = drafted(t)?;
    let sources: Result<Vec<KissSource>, String> = match payment {
        Payment::Lot => Ok(vec![KissSource::Lot; dice.len()]),
        Payment::Stunt => Ok(vec![KissSource::Stunt; dice.len()]),
        Payment::Specialty => named_sources(&t.st, &t.party.ctx, by, dice.len(), Named::Specialty),
        Payment::Insight => named_sources(&t.st, &t.party.ctx, by, dice.len(), Named::Insight),
    };
    let pairs = sources.map(|s| dice.iter().copied().zip(s).collect());
    declare(t, &dice, pairs)
}

/// `kpay`: the attribute or insight picked in the "Pay with a specialty or
/// insight" menu pays for the clicker's first picked die (the others stay
/// picked, waiting for their own payment), so the player says which pays
/// for which die. Refused like [`pay`].
pub fn pay_with(t: &mut Turn<'_>) -> Result<Step, AppError> {
    if let Some(step) = kiss_menu(t, |st| &mut st.pay_page)? {
        return Ok(step);
    }
    let value = t.value()?;
    let dice = drafted(t)?;
    let by = t.by();
    let source = chosen_source(&t.st, &t.party.ctx, by, &value);
    let first = dice[0];
    declare(t, &dice, source.map(|s| vec![(first, s)]))
}

/// `kiss`: the "KISS" menu, a die and its payment in each value picked
/// (`<die>:lot`, `<die>:stunt`, `<die>:sp:<attribute>`, `<die>:in:<insight>`):
/// every pair is declared at once, paid by the clicker (the roller, for the
/// FC). Each die once and each attribute or insight once; one refusal
/// declares none of them. The roller's pick re-rolls at once when nothing
/// declared waits on the FC ([`rolls_at_once`]).
pub fn pairs(t: &mut Turn<'_>) -> Result<Step, AppError> {
    if let Some(step) = kiss_menu(t, |st| &mut st.kiss_page)? {
        return Ok(step);
    }
    let by = t.by();
    let allowed = t.st.task.kissable_dice(by);
    let free = Named::BOTH.map(|k| {
        (
            k,
            free_names(&t.st, &t.party.ctx, by, k).unwrap_or_default(),
        )
    });
    let mut pairs: Vec<(u32, KissSource)> = Vec::new();
    let mut named: Vec<String> = Vec::new();
    for v in t.values {
        let (die, pay) = v
            .split_once(':')
            .and_then(|(d, p)| Some((d.parse::<u32>().ok()?, p)))
            .ok_or_else(|| AppError::user("That is not a die and a payment on the list."))?;
        if !allowed.contains(&die) {
            return Err(AppError::user(not_kissable(&t.st, by, die)));
        }
        if pairs.iter().any(|(d, _)| *d == die) {
            return Err(AppError::user(format!(
                "Die #{die} is picked twice: each die is KISSed once, paid one way."
            )));
        }
        let source = match pay {
            "lot" => KissSource::Lot,
            "stunt" => KissSource::Stunt,
            other => named_payment(other, &t.st.name_of(by), &free, &mut named)?,
        };
        pairs.push((die, source));
    }
    if pairs.is_empty() {
        return Err(AppError::user("Pick a die and how to pay in the menu."));
    }
    let actions = declarations(t, pairs.iter().cloned());
    let tried = trial(t, &actions).map_err(AppError::user)?;
    t.st.drafts.remove(&t.me());
    let ids: Vec<String> = pairs.iter().map(|(d, _)| format!("#{d}")).collect();
    t.st.note = Some(format!(
        "{} declares KISSes on {}",
        t.st.name_of(by),
        ids.join(", ")
    ));
    let mut actions = actions;
    if rolls_at_once(&tried, by) {
        actions.push(TaskAction::RollKisses { actor: t.a });
    }
    Ok(Step::rules(actions))
}

/// Whether the roller's own pick in the KISS menu also ends the round: the
/// roller is who presses **Re-roll** anyway, so once every KISS declared
/// needs no one else's word ([`TaskState::kisses_settled`]) the pick
/// re-rolls at once. An ally's pick, or one that waits on the FC, keeps
/// **Re-roll**.
fn rolls_at_once(task: &TaskState, by: i64) -> bool {
    by == task.roller && task.kisses_settled()
}

/// The attribute (`sp:…`) or insight (`in:…`) a menu payment names among
/// `who`'s unused ones; each pays for one die only (`named` keeps those
/// already paid with).
fn named_payment(
    pay: &str,
    who: &str,
    free: &[(Named, Vec<String>)],
    named: &mut Vec<String>,
) -> Result<KissSource, AppError> {
    let (kind, text) = named_kind(pay)
        .ok_or_else(|| AppError::user("That is not a die and a payment on the list."))?;
    let free = free.iter().filter(|(k, _)| *k == kind).flat_map(|(_, f)| f);
    let short = |x: &str| -> String {
        key_of(x)
            .chars()
            .take(crate::systems::venus::task_view::KISS_VALUE_TEXT)
            .collect()
    };
    let found = free
        .into_iter()
        .find(|f| short(f) == short(text))
        .ok_or_else(|| AppError::user(no_unused(who, kind, text)))?;
    let key = key_of(found);
    if named.contains(&key) {
        return Err(AppError::user(format!(
            "“{}” pays for one die only: pick another payment for the other.",
            found.trim()
        )));
    }
    named.push(key);
    Ok(kind.source(found.clone()))
}

/// The clicker's picked dice, not yet paid for.
fn drafted(t: &Turn<'_>) -> Result<Vec<u32>, AppError> {
    t.st.drafts
        .get(&t.me())
        .cloned()
        .filter(|d| !d.is_empty())
        .ok_or_else(|| AppError::user("Pick the dice to KISS in the \"KISS dice\" menu first."))
}

/// Declares a KISS for each `(die, source)` of `pairs` (`Err`: why the
/// payment cannot be made), tried first on copies: a refusal drops the
/// whole pick (`dice`) and tells the clicker why.
fn declare(
    t: &mut Turn<'_>,
    dice: &[u32],
    pairs: Result<Vec<(u32, KissSource)>, String>,
) -> Result<Step, AppError> {
    let me = t.me();
    let by = t.by();
    let actions = pairs.map(|pairs| declarations(t, pairs));
    let refusal = match &actions {
        Ok(actions) => trial(t, actions).err(),
        Err(why) => Some(why.clone()),
    };
    if let Some(why) = refusal {
        t.st.drafts.remove(&me);
        let ids: Vec<String> = dice.iter().map(|d| format!("#{d}")).collect();
        t.st.note = Some(format!("{}'s KISS payment was refused", t.st.name_of(by)));
        return Ok(Step {
            whisper: Some(format!(
                "⚠️ {why}\nNothing was paid, and {} no longer waits for a payment: pick the dice again and choose how to pay.",
                ids.join(", ")
            )),
            ..Step::redraw()
        });
    }
    Ok(Step::rules(actions.unwrap_or_default()))
}
/// The clicker's KISS declarations, one per `(die, source)`.
fn declarations(
    t: &Turn<'_>,
    pairs: impl IntoIterator<Item = (u32, KissSource)>,
) -> Vec<TaskAction> {
    let by = t.by();
    pairs
        .into_iter()
        .map(|(die, source)| TaskAction::DeclareKiss {
            actor: t.a,
            by,
            die,
            source,
        })
        .collect()
}

/// Applies `actions` to copies of the task and the sheets: the task as it
/// would then stand, or the rules core's refusal in the FC's words.
fn trial(t: &Turn<'_>, actions: &[TaskAction]) -> Result<TaskState, String> {
    let mut ctx = t.party.ctx.clone();
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let tried =
        t.st.task
            .clone()
            .apply_all(&mut ctx, actions.to_vec(), &mut rng);
    tried
        .map(|(task, _)| task)
        .map_err(|e| fc_words(e).user_message())
}

/// The next `n` unused attributes or insights of `by` ([`free_names`]).
fn named_sources(
    st: &TaskSession,
    ctx: &VenusCtx,
    by: i64,
    n: usize,
    kind: Named,
) -> Result<Vec<KissSource>, String> {
    let free = free_names(st, ctx, by, kind)?;
    if free.len() < n {
        let name = ctx.sheet(by).map(|s| clean(&s.name)).unwrap_or_default();
        let w = words(kind);
        return Err(format!(
            "{name} has {} unused {} for {n} dice: add one with `/ve sheet note kind:{}`, or pick fewer dice.",
            free.len(),
            w.many,
            w.one
        ));
    }
    Ok(free.into_iter().take(n).map(|t| kind.source(t)).collect())
}

/// The source a menu `value` names among `by`'s unused attributes and
/// insights; why not, when it names none of them.
fn chosen_source(
    st: &TaskSession,
    ctx: &VenusCtx,
    by: i64,
    value: &str,
) -> Result<KissSource, String> {
    let (kind, text) =
        named_kind(value).ok_or("That is not an attribute or insight on the list.")?;
    let free = free_names(st, ctx, by, kind)?;
    let found = free
        .into_iter()
        .find(|f| value_of(f, kind, VALUE_TEXT) == value_of(text, kind, VALUE_TEXT));
    let name = ctx.sheet(by).map(|s| s.name.clone()).unwrap_or_default();
    match found {
        Some(f) => Ok(kind.source(f)),
        None => Err(no_unused(&name, kind, text)),
    }
}

/// "Ada has no unused insight “…” in this task."
fn no_unused(who: &str, kind: Named, text: &str) -> String {
    format!(
        "{} has no unused {} “{}” in this task.",
        clean(who),
        words(kind).full,
        text.trim()
    )
}

/// `kclear`: withdraws the clicker's KISSes (the FC's, when not taking
/// part: every KISS) and their draft.
pub fn clear(t: &mut Turn<'_>) -> Result<Step, AppError> {
    let by = t.by();
    let everyone = t.a.gm && !t.participant();
    let mine: Vec<u32> =
        t.st.task
            .kisses
            .iter()
            .filter(|k| k.by == by || everyone)
            .map(|k| k.die)
            .collect();
    let mut step = Step::rules(
        mine.into_iter()
            .map(|die| TaskAction::WithdrawKiss { actor: t.a, die })
            .collect(),
    );
    if t.st.drafts.remove(&t.me()).is_some() {
        step.redraw = true;
    }
    if step.actions.is_empty() && !step.redraw {
        return Err(AppError::user("You have no KISS to withdraw."));
    }
    t.st.note = Some(format!("{} withdrew their KISSes", t.st.name_of(by)));
    Ok(step)
}

/// `consent`: an ally allows (or no longer allows) KISSes on their die.
pub fn consent(t: &Turn<'_>) -> Result<Step, AppError> {
    let me = t.me();
    let current =
        t.st.task
            .allies
            .iter()
            .find(|x| x.id == me)
            .map(|x| x.consented_kiss)
            .ok_or_else(|| AppError::user("Only an ally consents to KISSes on their own die."))?;
    Ok(Step::one(TaskAction::ConsentKiss {
        actor: t.a,
        ally: me,
        consent: !current,
    }))
}

/// `kok` (FC): approves every KISS awaiting approval.
pub fn approve(t: &Turn<'_>) -> Result<Step, AppError> {
    t.fc_only("approve KISSes")?;
    let actions: Vec<TaskAction> =
        t.st.task
            .kisses
            .iter()
            .filter(|k| !k.approved)
            .map(|k| TaskAction::ApproveKiss {
                actor: t.a,
                die: k.die,
            })
            .collect();
    if actions.is_empty() {
        return Err(AppError::user("No KISS awaits approval."));
    }
    Ok(Step::rules(actions))
}

/// `kveto` (FC): vetoes the last KISS declared.
pub fn veto(t: &Turn<'_>) -> Result<Step, AppError> {
    t.fc_only("veto a KISS")?;
    let k =
        t.st.task
            .kisses
            .last()
            .ok_or_else(|| AppError::user("No KISS is declared."))?;
    Ok(Step::one(TaskAction::VetoKiss {
        actor: t.a,
        die: k.die,
    }))
}
