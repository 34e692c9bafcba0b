//! Timing, percentiles and resident memory for `haema bench`.

use std::future::Future;
use std::time::Instant;

use serde_json::{Map, Value, json};

/// One line of output: `op`, `n`, and the op's figures.
#[derive(Debug, Clone)]
pub struct Row(pub Map<String, Value>);

impl Row {
    pub fn new(op: &str, n: usize) -> Self {
        let mut map = Map::new();
        map.insert("op".into(), json!(op));
        map.insert("n".into(), json!(n));
        Self(map)
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.into(), value.into());
        self
    }

    /// `p50_ms`, `p95_ms` and `samples` of durations in milliseconds.
    pub fn timings(self, samples: &[f64]) -> Self {
        let (p50, p95) = percentiles(samples);
        self.with("p50_ms", round(p50))
            .with("p95_ms", round(p95))
            .with("samples", samples.len())
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }
}

/// Three significant decimals below 1 ms, two above: readable and stable in a table.
pub fn round(ms: f64) -> f64 {
    let scale = if ms.abs() < 1.0 { 1000.0 } else { 100.0 };
    (ms * scale).round() / scale
}

/// The median and the 95th percentile (nearest rank) of `samples`.
pub fn percentiles(samples: &[f64]) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
    let median = if sorted.len().is_multiple_of(2) {
        (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
    } else {
        sorted[sorted.len() / 2]
    };
    (median, at(0.95))
}

/// Runs `op` for each input and returns the durations in ms (after one untimed warm-up).
pub async fn time_each<I, F, Fut, T>(inputs: I, mut op: F) -> anyhow::Result<Vec<f64>>
where
    I: IntoIterator,
    F: FnMut(I::Item) -> Fut,
    Fut: Future<Output = anyhow::Result<T>>,
{
    let mut samples = Vec::new();
    let mut warmed = false;
    for input in inputs {
        let start = Instant::now();
        op(input).await?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if warmed {
            samples.push(ms);
        }
        warmed = true;
    }
    Ok(samples)
}

/// This process's peak resident memory in MB (Linux `VmHWM`), when the system says.
pub fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some((kb / 1024.0 * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let samples: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentiles(&samples), (50.5, 95.0));
        assert_eq!(percentiles(&[3.0]), (3.0, 3.0));
        assert_eq!(percentiles(&[]), (0.0, 0.0));
        assert_eq!(percentiles(&[2.0, 1.0, 3.0]), (2.0, 3.0));
    }

    #[test]
    fn rows_carry_op_n_and_timings() {
        let row = Row::new("search", 10).timings(&[1.0, 2.0, 3.0]);
        assert_eq!(row.get("op"), Some(&json!("search")));
        assert_eq!(row.get("p50_ms"), Some(&json!(2.0)));
        assert_eq!(row.get("samples"), Some(&json!(3)));
    }
}
