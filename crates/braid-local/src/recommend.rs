//! The models Braid suggests: a short list of instruct models chosen for
//! how well they answer at their size, and the pick for one machine — the
//! largest that fits its memory with room to spare and still writes faster
//! than a person reads on its cores (or its GPU, where one is found).

use crate::gguf::{self, Fit};
use braid_protocol::{MachineShape, MemoryFit, Recommended};

struct Entry {
    repo: &'static str,
    file: &'static str,
    label: &'static str,
    about: &'static str,
    /// The file's size (the hub gives the exact one when it is fetched).
    bytes: u64,
}

const MB: u64 = 1_000_000;

/// Smallest first.
const LIST: &[Entry] = &[
    Entry {
        repo: "bartowski/Qwen2.5-0.5B-Instruct-GGUF",
        file: "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf",
        label: "Qwen2.5 0.5B Instruct",
        about: "quick on any machine; short answers, simple tool calls",
        bytes: 398 * MB,
    },
    Entry {
        repo: "bartowski/Llama-3.2-1B-Instruct-GGUF",
        file: "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
        label: "Llama 3.2 1B Instruct",
        about: "fast general chat, 128k window",
        bytes: 808 * MB,
    },
    Entry {
        repo: "bartowski/Qwen2.5-1.5B-Instruct-GGUF",
        file: "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
        label: "Qwen2.5 1.5B Instruct",
        about: "good answers and tool calls for its size",
        bytes: 986 * MB,
    },
    Entry {
        repo: "bartowski/Llama-3.2-3B-Instruct-GGUF",
        file: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        label: "Llama 3.2 3B Instruct",
        about: "solid everyday assistant",
        bytes: 2_020 * MB,
    },
    Entry {
        repo: "bartowski/Qwen2.5-7B-Instruct-GGUF",
        file: "Qwen2.5-7B-Instruct-Q4_K_M.gguf",
        label: "Qwen2.5 7B Instruct",
        about: "strong at code, reasoning and tools",
        bytes: 4_680 * MB,
    },
    Entry {
        repo: "bartowski/Qwen2.5-14B-Instruct-GGUF",
        file: "Qwen2.5-14B-Instruct-Q4_K_M.gguf",
        label: "Qwen2.5 14B Instruct",
        about: "the best here, for a big machine or a GPU",
        bytes: 8_990 * MB,
    },
];

/// The largest file that still writes a few words a second on `cores`
/// CPU cores: decoding reads every weight once per token, and on small
/// machines the cores, not the memory, set the pace (about 1 GB of
/// weights gives 5 tokens a second on 2 cores).
fn fast_enough(cores: u32, gpu_memory: Option<u64>) -> u64 {
    let cpu = u64::from(cores.max(1)) * 600 * MB;
    let gpu = gpu_memory.map_or(0, |g| g / 10 * 8);
    cpu.max(gpu)
}

/// What a file of `bytes` needs loaded with a 4k window: the weights and
/// about a fifth more for the cache and the compute buffers.
fn needed(bytes: u64) -> u64 {
    bytes + bytes / 5 + 150 * MB
}

/// The list for `machine`, with its pick; `on_shelf` says which files the
/// shelf holds already.
pub fn recommend(machine: &MachineShape, on_shelf: impl Fn(&str) -> bool) -> Vec<Recommended> {
    let speed = fast_enough(machine.cores, machine.gpu_memory);
    let fit = |bytes: u64| match gguf::fit(needed(bytes), machine.available) {
        Fit::Fits => MemoryFit::Fits,
        Fit::Tight => MemoryFit::Tight,
        Fit::TooBig => MemoryFit::TooBig,
    };
    let pick = LIST.iter().rposition(|e| fit(e.bytes) == MemoryFit::Fits && e.bytes <= speed).unwrap_or(0);
    LIST.iter()
        .enumerate()
        .map(|(i, e)| Recommended {
            repo: e.repo.to_owned(),
            file: e.file.to_owned(),
            label: e.label.to_owned(),
            about: e.about.to_owned(),
            bytes: e.bytes,
            fit: fit(e.bytes),
            slow: e.bytes > speed,
            pick: i == pick,
            on_shelf: on_shelf(e.file),
        })
        .collect()
}

/// This machine: its memory, cores and a GPU's memory where one is found.
pub fn this_machine() -> MachineShape {
    MachineShape {
        memory: gguf::meminfo("MemTotal:").unwrap_or(0),
        available: gguf::available_memory().unwrap_or(0),
        cores: crate::models::cores(),
        gpu_memory: gpu_memory(),
    }
}

/// The largest GPU memory the drivers report: AMD and Intel through the
/// kernel's DRM files, NVIDIA through `nvidia-smi` where it is installed.
fn gpu_memory() -> Option<u64> {
    let drm = std::fs::read_dir("/sys/class/drm").into_iter().flatten().flatten().filter_map(|card| {
        let text = std::fs::read_to_string(card.path().join("device/mem_info_vram_total")).ok()?;
        text.trim().parse::<u64>().ok()
    });
    let nvidia = std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=memory.total", "--format=csv,noheader,nounits"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| {
            String::from_utf8_lossy(&o.stdout).lines().filter_map(|l| l.trim().parse::<u64>().ok()).collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .map(|mib| mib << 20);
    drm.chain(nvidia).max().filter(|m| *m > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: u64 = 1_000_000_000;

    fn machine(available: u64, cores: u32, gpu_memory: Option<u64>) -> MachineShape {
        MachineShape { memory: available * 2, available, cores, gpu_memory }
    }

    fn pick(m: &MachineShape) -> String {
        recommend(m, |_| false).into_iter().find(|r| r.pick).map(|r| r.label).unwrap_or_default()
    }

    #[test]
    fn the_pick_grows_with_the_cores_and_stays_within_memory() {
        assert_eq!(pick(&machine(20 * GB, 2, None)), "Qwen2.5 1.5B Instruct");
        assert_eq!(pick(&machine(20 * GB, 4, None)), "Llama 3.2 3B Instruct");
        assert_eq!(pick(&machine(20 * GB, 8, None)), "Qwen2.5 7B Instruct");
        // Many cores, little memory: memory decides.
        assert_eq!(pick(&machine(2 * GB, 16, None)), "Qwen2.5 1.5B Instruct");
        // A GPU with 12 GB carries the 14B model on a small CPU.
        assert_eq!(pick(&machine(20 * GB, 2, Some(12 * GB))), "Qwen2.5 14B Instruct");
    }

    #[test]
    fn a_machine_too_small_for_any_still_gets_the_smallest_marked_as_not_fitting() {
        let list = recommend(&machine(300 * MB, 1, None), |_| false);
        assert!(list[0].pick);
        assert_eq!(list[0].fit, MemoryFit::TooBig);
        assert_eq!(list.iter().filter(|r| r.pick).count(), 1);
    }

    #[test]
    fn files_on_the_shelf_and_slow_ones_are_marked() {
        let list = recommend(&machine(20 * GB, 2, None), |f| f.starts_with("Qwen2.5-0.5B"));
        assert!(list[0].on_shelf && !list[1].on_shelf);
        assert!(!list[2].slow, "1.5B on 2 cores is quick enough");
        assert!(list[4].slow, "7B on 2 cores is not");
    }
}
