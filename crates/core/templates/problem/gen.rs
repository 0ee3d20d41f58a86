// Generator for `judge stress`: `gen SEED [SIZE]` prints one input to stdout. It must depend on
// its arguments only: the same seed always gives the same input.
// This stub prints one integer from 1 to SIZE (default 10): change it to print a whole input.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).expect("usage: gen SEED [SIZE]");
    let size: u64 = args.get(2).map_or(10, |s| s.parse().expect("SIZE: an integer"));
    let mut state = seed;
    let mut draw = |below: u64| {
        state = splitmix64(state);
        state % below.max(1)
    };
    let n = 1 + draw(size);
    println!("{n}");
}

/// SplitMix64: a well-mixed 64-bit number from the previous one, std only.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
