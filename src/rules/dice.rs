//! Rolling dice. Every function takes the generator from its caller.

use rand::Rng;

/// Rolls one die with `sides` faces: a uniform integer in `1..=sides`.
///
/// `sides` must be at least 1; a 1-sided die always shows 1.
pub fn d<R: Rng + ?Sized>(rng: &mut R, sides: u32) -> u32 {
    debug_assert!(sides >= 1, "a die needs at least one side");
    rng.random_range(1..=sides.max(1))
}

/// Rolls `count` dice with `sides` faces each, in order.
pub fn pool<R: Rng + ?Sized>(rng: &mut R, count: usize, sides: u32) -> Vec<u32> {
    (0..count).map(|_| d(rng, sides)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn faces_stay_in_range_and_cover_every_side() {
        let mut rng = StdRng::seed_from_u64(1);
        let faces = pool(&mut rng, 2000, 6);
        assert!(faces.iter().all(|&f| (1..=6).contains(&f)));
        for side in 1..=6 {
            assert!(faces.contains(&side), "face {side} never came up");
        }
    }

    #[test]
    fn same_seed_same_faces() {
        let a = pool(&mut StdRng::seed_from_u64(42), 10, 20);
        let b = pool(&mut StdRng::seed_from_u64(42), 10, 20);
        assert_eq!(a, b);
    }
}
