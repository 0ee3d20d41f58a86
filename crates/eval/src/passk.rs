//! pass@k by the unbiased estimator of Chen et al. (2021): of `n` samples of a problem, `c`
//! right, the chance that at least one of `k` drawn without replacement is right,
//! 1 - C(n-c, k) / C(n, k), computed as a product so that no binomial overflows; pure.

use std::collections::BTreeMap;

/// pass@k of a problem with `n` samples of which `c` are right; `None` when `k` is 0 or more
/// than `n` (the estimator is not defined: it would need more samples than were drawn).
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || k > n {
        return None;
    }
    let c = c.min(n);
    // Fewer wrong samples than k: every draw of k holds a right one.
    if n - c < k {
        return Some(1.0);
    }
    // k = 1 is the fraction right, exactly (the product would leave a rounding error).
    if k == 1 {
        return Some(c as f64 / n as f64);
    }
    // C(n-c, k) / C(n, k) = prod_{i = n-c+1}^{n} (1 - k / i)
    let all_wrong: f64 = ((n - c + 1)..=n)
        .map(|i| 1.0 - k as f64 / i as f64)
        .product();
    Some(1.0 - all_wrong)
}

/// The mean over problems of pass@k, for each `k`, over the problems with at least `k`
/// samples: the mean, and how many problems it is over (0: none had enough, and no mean).
pub fn mean(problems: &[(u64, u64)], ks: &[u64]) -> BTreeMap<u64, (Option<f64>, usize)> {
    ks.iter()
        .map(|&k| {
            let values: Vec<f64> = problems
                .iter()
                .filter_map(|&(n, c)| pass_at_k(n, c, k))
                .collect();
            let mean =
                (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64);
            (k, (mean, values.len()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn pass_at_1_is_the_fraction_right() {
        assert!(close(pass_at_k(10, 3, 1).unwrap(), 0.3));
        assert!(close(pass_at_k(4, 0, 1).unwrap(), 0.0));
        assert!(close(pass_at_k(4, 4, 1).unwrap(), 1.0));
    }

    #[test]
    fn pass_at_k_matches_the_binomials_by_hand() {
        // n = 5, c = 2, k = 2: 1 - C(3,2)/C(5,2) = 1 - 3/10.
        assert!(close(pass_at_k(5, 2, 2).unwrap(), 0.7));
        // n = 10, c = 1, k = 5: 1 - C(9,5)/C(10,5) = 1 - 126/252.
        assert!(close(pass_at_k(10, 1, 5).unwrap(), 0.5));
        // n = 4, c = 3, k = 2: only one wrong sample, every pair holds a right one.
        assert!(close(pass_at_k(4, 3, 2).unwrap(), 1.0));
    }

    #[test]
    fn a_large_n_stays_finite_and_exact_enough() {
        // C(1000, 10) overflows a u64; the product does not. 1 - C(900,10)/C(1000,10).
        let p = pass_at_k(1000, 100, 10).unwrap();
        let exact: f64 = (0..10)
            .map(|i| (900 - i) as f64 / (1000 - i) as f64)
            .product();
        assert!(close(p, 1.0 - exact), "{p}");
    }

    #[test]
    fn k_above_n_or_zero_is_not_defined() {
        assert_eq!(pass_at_k(3, 1, 5), None);
        assert_eq!(pass_at_k(3, 1, 0), None);
    }

    #[test]
    fn the_mean_is_over_the_problems_with_enough_samples() {
        let means = mean(&[(2, 1), (10, 10), (1, 0)], &[1, 2, 5]);
        let (m1, over1) = means[&1];
        assert!(close(m1.unwrap(), (0.5 + 1.0 + 0.0) / 3.0));
        assert_eq!(over1, 3);
        // k = 2: the problem with one sample is left out. (2,1): 1 - 0 = 1.
        let (m2, over2) = means[&2];
        assert!(close(m2.unwrap(), 1.0));
        assert_eq!(over2, 2);
        assert_eq!(means[&5], (Some(1.0), 1));
    }
}
