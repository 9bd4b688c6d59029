#!/usr/bin/env bash
# A legal engine that talks a lot: it relays everything to the engine given as $1 (ours) and
# adds lines protocol.md allows an engine to print, of the kind $2, at their longest:
#   long-info    a 40 KB `info ... pv` line during every search
#   multipv      `info depth D multipv K ...` lines with a `mate` score
#   info-string  `info string` cut to 200 characters and `...`, during searches and before readyok
#   blank        blank lines during searches and before ugiok and readyok
# With `option.Ponder=true` the engine's own answers are `bestmove M ponder P`. The arena must
# score it as an engine that plays, never as garbage.
set -u
kind=$2
coproc ENGINE { "$1"; }
long_pv=$(printf 'a1-b2 %.0s' $(seq 1 7000))
note=$(printf 'x%.0s' $(seq 1 200))
extra() {  # the lines of this kind, before the engine's answer
  case "$kind" in
    long-info) printf 'info depth 1 score cp 0 nodes 1 nps 1 time 0 pv %s\n' "$long_pv" ;;
    multipv) printf 'info depth 2 multipv 1 score mate 3 nodes 9 nps 9000 time 1 pv a1\n'
             printf 'info depth 2 multipv 2 score mate -3 nodes 9 nps 9000 time 1 pv b1\n' ;;
    info-string) printf 'info string %s...\n' "$note" ;;
    blank) printf '\n\n' ;;
  esac
}
relay_until() {  # prints the engine's lines up to and including one starting with $1
  while IFS= read -r out <&"${ENGINE[0]}"; do
    case "$out" in "$1"*) case "$kind" in info-string|blank) extra ;; esac ;; esac
    printf '%s\n' "$out"
    case "$out" in "$1"*) return ;; esac
  done
}
while IFS= read -r line; do
  printf '%s\n' "$line" >&"${ENGINE[1]}"
  case "$line" in
    quit) exit 0 ;;
    ugi) relay_until ugiok ;;
    isready) relay_until readyok ;;
    go*) extra; relay_until bestmove ;;
  esac
done
