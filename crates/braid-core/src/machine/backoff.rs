//! Retry delays: exponential with jitter. The jitter is derived from the
//! request id and attempt, not from a random source, so the machine stays
//! deterministic while two contexts retrying together still spread out.

use super::MachineConfig;
use braid_protocol::RequestId;

/// Delay before retry number `attempt` (1-based). A server's Retry-After
/// wins when it asks for longer.
pub fn retry_delay_ms(config: &MachineConfig, attempt: u32, request: RequestId, retry_after_ms: Option<u64>) -> u64 {
    let exp = config.backoff_base_ms.saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
    let base = exp.min(config.backoff_cap_ms);
    let jitter_span = base / 4;
    let jitter = if jitter_span == 0 { 0 } else { mix(request.0 ^ (u64::from(attempt) << 32)) % jitter_span };
    let delay = base + jitter;
    retry_after_ms.map_or(delay, |ra| ra.max(delay))
}

/// splitmix64 finaliser: a cheap, well-spread hash.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_exponentially_within_jitter_and_cap() {
        let cfg = MachineConfig::default();
        for attempt in 1..=3u32 {
            let base = 1000u64 << (attempt - 1);
            let d = retry_delay_ms(&cfg, attempt, RequestId(7), None);
            assert!(
                (base..base + base / 4).contains(&d),
                "attempt {attempt}: {d} not in [{base}, {}]",
                base + base / 4
            );
        }
        assert!(retry_delay_ms(&cfg, 30, RequestId(7), None) < cfg.backoff_cap_ms * 5 / 4);
    }

    #[test]
    fn retry_after_wins_when_longer() {
        let cfg = MachineConfig::default();
        assert_eq!(retry_delay_ms(&cfg, 1, RequestId(1), Some(20_000)), 20_000);
        assert!(retry_delay_ms(&cfg, 1, RequestId(1), Some(10)) >= 1000);
    }
}
