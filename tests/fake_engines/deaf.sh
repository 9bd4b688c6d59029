#!/bin/sh
# A fake engine that never reads its input (the web board must not wait on it).
exec sleep 60
