#!/bin/bash
# Fine-tune a Tesseract LSTM line model on one core, resumably.
#
# usage: finetune.sh START.lstm BASE.traineddata TRAIN.list EVAL.list ITERATIONS NAME
#
#   START.lstm         float recognizer to start from (int2float.py output,
#                      or a previous run's NAME_checkpoint)
#   BASE.traineddata   gives the lstm-unicharset/recoder, and is copied whole
#                      into the output with only its lstm component replaced
#                      (word/punc/number dawgs, version, any legacy parts)
#   TRAIN.list/EVAL.list  files listing .lstmf paths, one per line
#   ITERATIONS         total training iterations (samples), not "more"
#   NAME               model name; work dir .build-model/finetune/NAME
#
# env: LR=0.0001     set one learning rate for every layer at the start.
#                    Without it the rates stored in START are used (Debian eng:
#                    1e-3 on conv/Lfys48/Lrx96, 1.25e-4 on Lfx96/Lfx192/output).
#                    lstmtraining ignores --learning_rate on --continue_from
#                    unless --reset_learning_rate is also given, so both go.
#      WORK=DIR      work dir instead of the default.
#      EXTRA="..."   more lstmtraining flags (e.g. --debug_interval -1 prints
#                    every line's OCR vs truth; --target_error_rate 0.01 stops
#                    early once the rolling training BCER (%) is below it).
#
# Output: $WORK/tessdata/NAME.traineddata (integer, like stock eng) and
# NAME_float.traineddata (float, unquantised), then lstmeval BCER on EVAL for
# stock BASE, the start, and both new models.  Kill and rerun the same command
# to resume: lstmtraining prefers $WORK/NAME_checkpoint over --continue_from.
set -euo pipefail

if [ $# -ne 6 ]; then sed -n '2,28p' "$0"; exit 2; fi
start=$(realpath "$1"); base=$(realpath "$2")
train=$(realpath "$3"); eval_list=$(realpath "$4")
iters=$5; name=$6
here=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$here/.build-model/finetune/$name}
mkdir -p "$work/tessdata"
# The machine is shared: Tesseract must not spread over more than one core.
export OMP_THREAD_LIMIT=1

lr_args=()
if [ -n "${LR:-}" ]; then lr_args=(--learning_rate "$LR" --reset_learning_rate); fi

ckpt=$work/${name}_checkpoint
[ -f "$ckpt" ] && echo "resuming from $ckpt"
# No --eval_listfile here: lstmtraining would run it in an extra thread (a
# second core), and it only logs; model choice uses the training error.
set +e
# shellcheck disable=SC2086
lstmtraining \
  --continue_from "$start" \
  --traineddata "$base" \
  --model_output "$work/$name" \
  --train_listfile "$train" \
  --max_iterations "$iters" \
  "${lr_args[@]}" ${EXTRA:-} 2>&1 | tee -a "$work/train.log" |
  grep --line-buffered -E '^At iteration|^Finished|^Error|[Ff]ailed|^Continuing|^Successfully restored'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ] || [ ! -f "$ckpt" ]; then
  echo "lstmtraining failed ($status); see $work/train.log" >&2; exit 1
fi

# Each new best writes a ~9 MB NAME_<err>_<iter>.checkpoint: keep the last 3.
ls -t "$work/$name"_[0-9]*.checkpoint 2>/dev/null | tail -n +4 | xargs -r rm -f

out=$work/tessdata
lstmtraining --stop_training --continue_from "$ckpt" --traineddata "$base" \
  --model_output "$out/$name.traineddata" --convert_to_int >/dev/null 2>&1
lstmtraining --stop_training --continue_from "$ckpt" --traineddata "$base" \
  --model_output "$out/${name}_float.traineddata" >/dev/null 2>&1

bcer() { lstmeval "$@" --eval_listfile "$eval_list" 2>&1 | grep -o 'BCER eval=[0-9.]*, BWER eval=[0-9.]*'; }
echo "eval on $(wc -l < "$eval_list") files of $eval_list:"
echo "  base  $(bcer --model "$base")"
echo "  start $(bcer --model "$start" --traineddata "$base")"
echo "  $name (int)   $(bcer --model "$out/$name.traineddata")"
echo "  $name (float) $(bcer --model "$out/${name}_float.traineddata")"
echo "use: tesseract IMG - --tessdata-dir $out -l $name"
