//! Exact discrete distributions over small non-negative integers.
//!
//! A distribution is a `Vec<f64>` where element `k` is P(X = k). These are
//! computed, never simulated; with the pool sizes the bot allows, f64
//! arithmetic stays within 1e-12 of the exact rational values.

/// The distribution of X + Y for independent X ~ `a` and Y ~ `b`.
pub fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &pa) in a.iter().enumerate() {
        if pa == 0.0 {
            continue;
        }
        for (j, &pb) in b.iter().enumerate() {
            out[i + j] += pa * pb;
        }
    }
    out
}

/// The distribution of the sum of independent variables, each given by its
/// distribution. The empty sum is the point mass at 0.
pub fn sum_of(parts: &[Vec<f64>]) -> Vec<f64> {
    parts.iter().fold(vec![1.0], |acc, p| convolve(&acc, p))
}

/// Binomial(n, p): the number of successes in `n` independent trials.
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    let trial = [1.0 - p, p];
    (0..n).fold(vec![1.0], |acc, _| convolve(&acc, &trial))
}

/// Tail sums: element k of the result is P(X >= k), for k in `0..pmf.len()`.
pub fn at_least(pmf: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; pmf.len()];
    let mut acc = 0.0;
    for k in (0..pmf.len()).rev() {
        acc += pmf[k];
        out[k] = acc;
    }
    out
}

/// The mean of a distribution.
pub fn mean(pmf: &[f64]) -> f64 {
    pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_matches_closed_form() {
        let b = binomial(4, 0.5);
        let expect = [1.0, 4.0, 6.0, 4.0, 1.0].map(|c| c / 16.0);
        for (x, y) in b.iter().zip(expect) {
            assert!((x - y).abs() < 1e-15);
        }
    }

    #[test]
    fn at_least_is_cumulative_from_the_top() {
        let t = at_least(&[0.25, 0.5, 0.25]);
        assert_eq!(t, vec![1.0, 0.75, 0.25]);
    }

    #[test]
    fn sum_of_two_d6_peaks_at_seven() {
        let d6: Vec<f64> = std::iter::once(0.0).chain([1.0 / 6.0; 6]).collect();
        let s = sum_of(&[d6.clone(), d6]);
        assert!((s[7] - 6.0 / 36.0).abs() < 1e-15);
        assert!((mean(&s) - 7.0).abs() < 1e-12);
    }
}
