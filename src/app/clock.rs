//! The application's clock: the wall clock in production, a clock moved by
//! hand in tests ([`Clock::manual`]), so that what waits days (the
//! deletion of a departed guild's data, [`super::departures`]) can be
//! tested in milliseconds; the sandbox's runs on the wall clock and jumps
//! ahead on a script's `wait 3 days` ([`Clock::shifted`]).
//!
//! Background work that runs "every hour" sleeps on the clock
//! ([`Clock::sleep_until`]): on a manual clock it wakes when the clock is
//! moved past its time, not when real time passes.

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Where the time comes from (cheap to clone; clones of a manual clock
/// share its time).
#[derive(Clone, Debug, Default)]
pub struct Clock(Kind);

#[derive(Clone, Debug, Default)]
enum Kind {
    /// The system's wall clock.
    #[default]
    System,
    /// A time in milliseconds since the epoch, moved by [`Clock::advance`].
    Manual(Arc<watch::Sender<i64>>),
    /// The system's wall clock plus an offset in milliseconds, moved
    /// forward by [`Clock::advance`] (the sandbox's `wait 3 days`).
    Shifted(Arc<watch::Sender<i64>>),
}

impl Clock {
    /// The system's wall clock (the default).
    pub fn system() -> Self {
        Self(Kind::System)
    }

    /// A clock that stands at `start_ms` (milliseconds since the epoch)
    /// until moved ([`Clock::advance`]).
    pub fn manual(start_ms: i64) -> Self {
        Self(Kind::Manual(Arc::new(watch::Sender::new(start_ms))))
    }

    /// The system's wall clock, which [`Clock::advance`] can move forward
    /// (time flows as on the wall clock, from further on): the sandbox's,
    /// whose scripts jump days ahead.
    pub fn shifted() -> Self {
        Self(Kind::Shifted(Arc::new(watch::Sender::new(0))))
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.0 {
            Kind::System => crate::storage::now_ms(),
            Kind::Manual(t) => *t.borrow(),
            Kind::Shifted(by) => crate::storage::now_ms().saturating_add(*by.borrow()),
        }
    }

    /// Moves a manual clock forward by `by` and wakes what sleeps on it
    /// until then; returns the new time. `None` for the system clock,
    /// which cannot be moved.
    pub fn advance(&self, by: Duration) -> Option<i64> {
        let (Kind::Manual(t) | Kind::Shifted(t)) = &self.0 else {
            return None;
        };
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        t.send_modify(|ms| *ms = ms.saturating_add(by));
        Some(self.now_ms())
    }

    /// Waits until the clock reads `at_ms` or later (at once if it does).
    pub async fn sleep_until(&self, at_ms: i64) {
        match &self.0 {
            Kind::System => {
                let left = at_ms.saturating_sub(crate::storage::now_ms()).max(0);
                tokio::time::sleep(Duration::from_millis(left.unsigned_abs())).await;
            }
            Kind::Manual(t) => {
                let mut rx = t.subscribe();
                // The sender lives as long as this clock: it cannot close.
                let _ = rx.wait_for(|now| *now >= at_ms).await;
            }
            Kind::Shifted(by) => {
                // Sleeps on the wall clock, and wakes early to look again
                // when the clock is moved.
                let mut rx = by.subscribe();
                loop {
                    let left = at_ms.saturating_sub(self.now_ms());
                    if left <= 0 {
                        return;
                    }
                    let wait = Duration::from_millis(left.unsigned_abs());
                    let _ = tokio::time::timeout(wait, rx.changed()).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_moves_only_by_hand_and_wakes_its_sleepers() {
        let clock = Clock::manual(1_000);
        assert_eq!(clock.now_ms(), 1_000);
        let sleeper = {
            let clock = clock.clone();
            tokio::spawn(async move { clock.sleep_until(5_000).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!sleeper.is_finished(), "woke before its time");
        assert_eq!(clock.advance(Duration::from_secs(2)), Some(3_000));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!sleeper.is_finished(), "woke before its time");
        assert_eq!(clock.advance(Duration::from_secs(2)), Some(5_000));
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken")
            .unwrap();
        // A time already passed: at once.
        clock.sleep_until(10).await;
        assert_eq!(Clock::system().advance(Duration::from_secs(1)), None);
        // A shifted clock runs on the wall clock, from where it was moved.
        let shifted = Clock::shifted();
        let wall = Clock::system().now_ms();
        assert!((shifted.now_ms() - wall).abs() < 60_000);
        let sleeper = {
            let shifted = shifted.clone();
            tokio::spawn(async move { shifted.sleep_until(wall + 86_400_000).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!sleeper.is_finished(), "woke before its time");
        let moved = shifted.advance(Duration::from_secs(2 * 86_400)).unwrap();
        assert!(moved - wall >= 2 * 86_400_000);
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken by the move")
            .unwrap();
        assert!(Clock::system().now_ms() > 1_600_000_000_000);
    }
}
