#!/bin/sh
# A fake engine that completes the handshake but never answers `isready` again (a hang).
ready=0
while read -r line; do
  case "$line" in
    ugi) echo "ugiok" ;;
    isready) if [ "$ready" = 0 ]; then echo "readyok"; ready=1; fi ;;
    quit) exit 0 ;;
  esac
done
