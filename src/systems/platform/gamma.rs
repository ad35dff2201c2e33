//! The chi-square test behind `/stats`: the log-gamma function and the
//! regularised incomplete gamma functions, written out (series and
//! continued fraction, as in Numerical Recipes §6.2) so no statistics crate
//! is needed.

/// Relative precision the series and continued fraction aim for.
const EPS: f64 = 1e-15;
/// A number near the smallest positive double, for Lentz's method.
const FPMIN: f64 = 1e-300;
/// Iteration cap (both expansions converge in well under this for the
/// arguments a die can produce).
const MAX_ITER: usize = 10_000;

/// ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; about 15
/// significant digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).abs().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised lower incomplete gamma function P(a, x) = γ(a, x) / Γ(a),
/// for a > 0 and x ≥ 0 (NaN otherwise).
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if a.is_nan() || x.is_nan() || a <= 0.0 || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if x < a + 1.0 {
        series(a, x)
    } else {
        1.0 - continued_fraction(a, x)
    }
}

/// The regularised upper incomplete gamma function Q(a, x) = 1 − P(a, x),
/// computed directly in the tail so small values keep their precision.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if a.is_nan() || x.is_nan() || a <= 0.0 || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        1.0 - series(a, x)
    } else {
        continued_fraction(a, x)
    }
}

/// The prefactor xᵃ e⁻ˣ / Γ(a), in logs to avoid overflow.
fn prefactor(a: f64, x: f64) -> f64 {
    (a * x.ln() - x - ln_gamma(a)).exp()
}

/// P(a, x) by its power series (converges fast for x < a + 1).
fn series(a: f64, x: f64) -> f64 {
    let mut ap = a;
    let mut del = 1.0 / a;
    let mut sum = del;
    for _ in 0..MAX_ITER {
        ap += 1.0;
        del *= x / ap;
        sum += del;
        if del.abs() < sum.abs() * EPS {
            break;
        }
    }
    (sum * prefactor(a, x)).clamp(0.0, 1.0)
}

/// Q(a, x) by its continued fraction, evaluated with Lentz's method
/// (converges fast for x ≥ a + 1).
fn continued_fraction(a: f64, x: f64) -> f64 {
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / FPMIN;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..MAX_ITER {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = b + an / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    (prefactor(a, x) * h).clamp(0.0, 1.0)
}

/// The p-value of a chi-square statistic with `df` degrees of freedom:
/// the chance that a fair process gives a statistic at least this large,
/// Q(df/2, stat/2).
pub fn chi_square_p(stat: f64, df: u32) -> f64 {
    if df == 0 {
        return 1.0;
    }
    gamma_q(f64::from(df) / 2.0, stat.max(0.0) / 2.0)
}

/// Pearson's chi-square statistic of observed counts against a uniform
/// expectation (every face equally likely): Σ (O − E)² / E.
pub fn chi_square_uniform(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    if n == 0 || counts.is_empty() {
        return 0.0;
    }
    let e = n as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&o| {
            let d = o as f64 - e;
            d * d / e
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol * b.abs().max(1e-300), "{a} vs {b}");
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(ln_gamma(1.0).abs() < 1e-14);
        assert!(ln_gamma(2.0).abs() < 1e-14);
        close(ln_gamma(0.5), 0.572_364_942_924_700_1, 1e-13); // ln √π
        close(ln_gamma(10.0), 12.801_827_480_081_469, 1e-13); // ln 9!
        close(ln_gamma(100.0), 359.134_205_369_575_4, 1e-13); // ln 99!
        close(ln_gamma(0.1), 2.252_712_651_734_206, 1e-12);
    }

    #[test]
    fn q_has_closed_forms_at_a_one_and_a_half() {
        // Q(1, x) = e^−x.
        for x in [0.01, 0.5, 1.0, 2.0, 10.0, 50.0] {
            close(gamma_q(1.0, x), (-x).exp(), 1e-12);
        }
        // Q(1/2, x) = erfc(√x): erfc(1) and erfc(2).
        close(gamma_q(0.5, 1.0), 0.157_299_207_050_285_13, 1e-12);
        close(gamma_q(0.5, 4.0), 0.004_677_734_981_047_266, 1e-11);
        // Q(a, 0) = 1 and P + Q = 1.
        assert_eq!(gamma_q(3.0, 0.0), 1.0);
        for (a, x) in [(2.5, 1.0), (2.5, 7.0), (50.0, 45.0), (50.0, 60.0)] {
            close(gamma_p(a, x) + gamma_q(a, x), 1.0, 1e-13);
        }
    }

    #[test]
    fn chi_square_critical_values_give_their_tail_probability() {
        // Critical values from standard chi-square tables.
        close(chi_square_p(3.841_458_820_694_124, 1), 0.05, 1e-9);
        close(chi_square_p(11.070_497_693_516_351, 5), 0.05, 1e-9); // d6
        close(chi_square_p(16.918_977_604_620_448, 9), 0.05, 1e-9); // d10
        close(chi_square_p(21.665_994_333_461_924, 9), 0.01, 1e-9);
        close(chi_square_p(30.143_527_205_646_16, 19), 0.05, 1e-9); // d20
        close(chi_square_p(36.190_869_129_270_05, 19), 0.01, 1e-9);
        close(
            chi_square_p(123.225_221_919_498_7, 99),
            0.049_999_997_045_093,
            1e-9,
        ); // d100
           // df = 2: the tail is e^(−x/2).
        close(chi_square_p(6.0, 2), (-3.0f64).exp(), 1e-12);
        // A known mid value: P(χ²₁₀ ≥ 10) = 0.440493285065212.
        close(chi_square_p(10.0, 10), 0.440_493_285_065_212_6, 1e-10);
        // Tiny tails keep relative precision.
        close(chi_square_p(100.0, 5), 5.285_148_360_943_24e-20, 1e-9);
        assert_eq!(chi_square_p(0.0, 5), 1.0);
    }

    #[test]
    fn the_statistic_of_a_perfectly_even_spread_is_zero() {
        assert_eq!(chi_square_uniform(&[5, 5, 5, 5, 5, 5]), 0.0);
        // 60 rolls of a d6, one face 20 and one 0: (10² + 10²) / 10 = 20.
        close(chi_square_uniform(&[20, 0, 10, 10, 10, 10]), 20.0, 1e-12);
        assert_eq!(chi_square_uniform(&[]), 0.0);
    }
}
