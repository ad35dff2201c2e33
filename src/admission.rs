//! Admission control: how many interactions the bot works on at once, and
//! which ones wait, are served or are turned away when more arrive than it
//! can answer.
//!
//! A [`Gate`] has a fixed number of places. An interaction takes one for
//! its work (the application and the database, not the wait for Discord's
//! answer) and gives it back when that is done ([`Place`] is dropped). When
//! no place is free it waits:
//! - while the queue is young, in arrival order and for as long as it was
//!   allowed: a burst is worked off in order;
//! - once a queue has stood for [`STANDING`] (the bot is overloaded, not in
//!   a burst), newest first, and a newcomer waits at most [`SHORT_WAIT`]:
//!   the freshest interactions are answered quickly and the oldest, which
//!   would be answered late anyway, are turned away (controlled delay with
//!   an adaptive last-in-first-out queue).
//!
//! A wait that ends without a place turns the interaction away; the caller
//! answers it "busy" and does nothing. Pure tokio: no Discord, no database.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::time::Instant;

/// How long an interaction may wait for a place before it is turned away
/// (less under overload: [`SHORT_WAIT`]): with the second its answer may
/// then take, still inside Discord's 3 s, and before a command's deferral
/// watchdog ([`crate::kit::deliver`]) starts.
pub const ADMISSION_WAIT: Duration = Duration::from_secs(1);
/// A queue that has not emptied for this long means overload, not a burst
/// (a burst of clicks on one roll is read from the gateway in well under a
/// second, and Discord allows 3 s for an answer).
pub const STANDING: Duration = Duration::from_secs(1);
/// Under overload, the longest a newcomer waits for a place.
pub const SHORT_WAIT: Duration = Duration::from_millis(50);

/// A fixed number of places (see the module documentation).
#[derive(Debug)]
pub struct Gate {
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    /// Places nobody holds.
    free: usize,
    /// Waiting interactions, oldest first.
    queue: VecDeque<Waiter>,
    /// Since when the queue has not been empty.
    since: Option<Instant>,
    /// The next waiter's ticket.
    next: u64,
}

#[derive(Debug)]
struct Waiter {
    ticket: u64,
    /// Told when it is handed a place.
    handed: oneshot::Sender<()>,
}

/// One place of a [`Gate`], given back when dropped.
#[derive(Debug)]
pub struct Place {
    gate: Arc<Gate>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut s = self.gate.lock();
        s.give_back();
    }
}

impl State {
    /// Whether the queue has stood long enough to mean overload.
    fn overloaded(&self, now: Instant) -> bool {
        self.since
            .is_some_and(|t| now.duration_since(t) >= STANDING)
    }

    /// A place comes free: handed to a waiter (newest first under
    /// overload, else oldest first), or kept free.
    fn give_back(&mut self) {
        let newest_first = self.overloaded(Instant::now());
        loop {
            let next = if newest_first {
                self.queue.pop_back()
            } else {
                self.queue.pop_front()
            };
            let Some(w) = next else {
                self.since = None;
                self.free += 1;
                return;
            };
            if self.queue.is_empty() {
                self.since = None;
            }
            // A waiter whose wait was dropped cannot take it: the next one.
            if w.handed.send(()).is_ok() {
                return;
            }
        }
    }

    /// Takes waiter `ticket` out of the queue.
    fn forget(&mut self, ticket: u64) {
        self.queue.retain(|w| w.ticket != ticket);
        if self.queue.is_empty() {
            self.since = None;
        }
    }
}

/// A waiter's claim while it waits: dropped early (a timed-out or
/// cancelled wait), it leaves the queue, or gives back a place it was
/// handed meanwhile.
struct Claim<'a> {
    gate: &'a Arc<Gate>,
    ticket: u64,
    handed: Option<oneshot::Receiver<()>>,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        let Some(mut rx) = self.handed.take() else {
            return;
        };
        let mut s = self.gate.lock();
        if rx.try_recv().is_ok() {
            s.give_back();
        } else {
            s.forget(self.ticket);
        }
    }
}

impl Gate {
    /// A gate with `places` places (at least one).
    pub fn new(places: usize) -> Arc<Gate> {
        Arc::new(Gate {
            state: Mutex::new(State {
                free: places.max(1),
                queue: VecDeque::new(),
                since: None,
                next: 0,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free place at once, if there is one and nobody waits for it.
    pub fn try_enter(self: &Arc<Self>) -> Option<Place> {
        let mut s = self.lock();
        if s.free > 0 && s.queue.is_empty() {
            s.free -= 1;
            return Some(Place { gate: self.clone() });
        }
        None
    }

    /// A place, waiting for one for at most `wait` (at most [`SHORT_WAIT`]
    /// under overload); `None` when none came in time.
    pub async fn enter(self: &Arc<Self>, wait: Duration) -> Option<Place> {
        let (claim, wait) = {
            let mut s = self.lock();
            if s.free > 0 && s.queue.is_empty() {
                s.free -= 1;
                return Some(Place { gate: self.clone() });
            }
            let now = Instant::now();
            let wait = if s.overloaded(now) {
                wait.min(SHORT_WAIT)
            } else {
                wait
            };
            let (tx, rx) = oneshot::channel();
            let ticket = s.next;
            s.next = s.next.wrapping_add(1);
            if s.queue.is_empty() {
                s.since = Some(now);
            }
            s.queue.push_back(Waiter { ticket, handed: tx });
            (
                Claim {
                    gate: self,
                    ticket,
                    handed: Some(rx),
                },
                wait,
            )
        };
        let mut claim = claim;
        let rx = claim.handed.as_mut()?;
        if let Ok(Ok(())) = tokio::time::timeout(wait, rx).await {
            claim.handed = None;
            return Some(Place { gate: self.clone() });
        }
        // Timed out: `claim` leaves the queue as it drops, or gives back
        // a place handed in the meantime.
        None
    }

    /// Places nobody holds.
    #[cfg(test)]
    fn free(&self) -> usize {
        self.lock().free
    }

    /// Interactions waiting for a place.
    pub fn waiting(&self) -> usize {
        self.lock().queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lets spawned waiters queue up.
    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn places_are_taken_and_given_back() {
        let g = Gate::new(2);
        let a = g.enter(Duration::from_secs(1)).await.expect("free");
        let b = g.try_enter().expect("free");
        assert_eq!(g.free(), 0);
        assert!(g.try_enter().is_none());
        assert!(g.enter(Duration::from_millis(10)).await.is_none(), "full");
        assert_eq!(g.waiting(), 0, "a timed-out waiter leaves the queue");
        drop(a);
        drop(b);
        assert_eq!(g.free(), 2);
    }

    /// Three waiters queued in turn, each allowed `wait`; each notes in
    /// the order served whether it got a place.
    async fn three_waiters(
        g: &Arc<Gate>,
        wait: Duration,
    ) -> (
        Arc<Mutex<Vec<(i32, bool)>>>,
        Vec<tokio::task::JoinHandle<()>>,
    ) {
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..3 {
            let (g, order) = (g.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let p = g.enter(wait).await;
                order.lock().unwrap().push((i, p.is_some()));
                drop(p);
            }));
            settle().await;
        }
        (order, tasks)
    }

    #[tokio::test]
    async fn a_young_queue_is_served_in_arrival_order() {
        let g = Gate::new(1);
        let held = g.try_enter().unwrap();
        let (order, tasks) = three_waiters(&g, Duration::from_secs(1)).await;
        assert_eq!(g.waiting(), 3);
        drop(held); // at once: the queue is young
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            vec![(0, true), (1, true), (2, true)]
        );
        assert_eq!(g.free(), 1);
    }

    #[tokio::test]
    async fn a_standing_queue_serves_the_newest_and_gives_newcomers_a_short_wait() {
        let g = Gate::new(1);
        let held = g.try_enter().unwrap();
        let (order, tasks) = three_waiters(&g, Duration::from_secs(10)).await;
        tokio::time::sleep(STANDING).await;
        // A newcomer under overload waits only SHORT_WAIT.
        let started = Instant::now();
        assert!(g.enter(Duration::from_secs(10)).await.is_none());
        let waited = started.elapsed();
        assert!(
            waited >= SHORT_WAIT && waited < Duration::from_secs(5),
            "{waited:?}"
        );
        // The place goes to the newest waiter; the rest follow newest first.
        drop(held);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            vec![(2, true), (1, true), (0, true)]
        );
        assert_eq!((g.free(), g.waiting()), (1, 0));
    }

    #[tokio::test]
    async fn a_place_handed_to_a_waiter_that_gave_up_is_not_lost() {
        let g = Gate::new(1);
        let held = g.try_enter().unwrap();
        let g2 = g.clone();
        let waiter = tokio::spawn(async move { g2.enter(Duration::from_secs(5)).await });
        settle().await;
        assert_eq!(g.waiting(), 1);
        waiter.abort(); // cancelled while waiting
        let _ = waiter.await;
        assert_eq!(g.waiting(), 0, "its claim left the queue");
        drop(held);
        assert_eq!(g.free(), 1, "the place came back");
        assert!(g.try_enter().is_some());
    }
}
