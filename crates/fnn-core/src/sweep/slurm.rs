//! The Slurm script of a sharded sweep: a job array of the shards, then a
//! merge job that starts once every shard succeeded. The same script runs
//! the shards one after another where there is no Slurm.

use crate::escape::{one_line, sh_word};

/// What the script runs.
#[derive(Clone, Debug, PartialEq)]
pub struct SlurmJob {
    /// The fnn-tui program, an absolute path (the nodes run it).
    pub program: String,
    /// The output directory, absolute: shards, merge and job logs.
    pub out: String,
    pub shards: usize,
    /// The sweep's flags shared by every shard and the merge.
    pub sweep: Vec<String>,
}

/// The script's text. Every value from the user is one shell word.
pub fn slurm_script(job: &SlurmJob) -> String {
    let words: Vec<String> = job.sweep.iter().map(|w| sh_word(w)).collect();
    format!(
        r#"#!/bin/bash
# A sharded fnn-tui sweep ({shards} shards) into {out_comment}
#
#   bash sweep-slurm.sh [SBATCH OPTIONS]  submit: a job array of the shards,
#       then the merge with --dependency=afterok on the array (the options,
#       e.g. --wait, go to the merge's sbatch); prints the merge's job id
#   bash sweep-slurm.sh local             no Slurm: the shards one after
#       another on this machine, then the merge
#
# sbatch reads SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT and the
# like from the environment for both jobs.
set -euo pipefail
fnn={program}
out={out}
shards={shards}
sweep=({words})

shard() {{ "$fnn" sweep --shard "$1/$shards" --out "$out" --quiet "${{sweep[@]}}"; }}

merge() {{
  local files=() i
  for i in $(seq 1 "$shards"); do files+=("$out/shard-$i-of-$shards.csv"); done
  "$fnn" sweep --merge "${{files[@]}}" --out "$out" "${{sweep[@]}}"
}}

case "${{1:-}}" in
  shard) shard "$SLURM_ARRAY_TASK_ID" ;;
  merge) merge ;;
  local)
    for i in $(seq 1 "$shards"); do shard "$i"; done
    merge
    ;;
  *)
    array=$(sbatch --parsable --job-name=fnn-sweep --array="1-$shards" \
      --output="$out/slurm-%A_%a.out" "$0" shard)
    array=${{array%%;*}}
    sbatch --parsable --job-name=fnn-sweep-merge --dependency="afterok:$array" \
      --kill-on-invalid-dep=yes --output="$out/slurm-merge-%j.out" "$@" "$0" merge
    ;;
esac
"#,
        shards = job.shards,
        out_comment = one_line(&job.out),
        program = sh_word(&job.program),
        out = sh_word(&job.out),
        words = words.join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_quotes_what_the_user_typed() {
        let job = SlurmJob {
            program: "/opt/fnn tui/fnn-tui".into(),
            out: "/tmp/it's here\n$(x)".into(),
            shards: 4,
            sweep: vec!["--pcs".into(), "3..12".into(), "--nics".into(), "2,3;rm".into()],
        };
        let s = slurm_script(&job);
        assert!(s.contains("fnn='/opt/fnn tui/fnn-tui'\n"), "{s}");
        assert!(s.contains("out='/tmp/it'\\''s here\n$(x)'\n"), "{s}");
        assert!(s.contains("sweep=(--pcs 3..12 --nics '2,3;rm')\n"), "{s}");
        assert!(s.contains("--array=\"1-$shards\""), "{s}");
        assert!(s.contains("--dependency=\"afterok:$array\""), "{s}");
        assert!(
            s.contains("# A sharded fnn-tui sweep (4 shards) into /tmp/it's here?$(x)\n"),
            "{s}"
        );
    }
}
