# Shared by the fake engines: answers the handshake and isready, and calls on_go for `go`.
# Each fake engine defines on_go, then sources this file.
while read -r line; do
  case "$line" in
    ugi) echo "id name fake"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    go*) on_go ;;
    quit) exit 0 ;;
  esac
done
