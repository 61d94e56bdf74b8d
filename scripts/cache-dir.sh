# Sourced by the scripts that cache outside the repository: sets zkoam_cache_dir to $ZKOAM_CACHE_DIR, else
# $XDG_CACHE_HOME/zk-oam, else ~/.cache/zk-oam (test/src/zookeeper-jvm/jvm-options.ts finds it the same way).
zkoam_cache_dir=${ZKOAM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zk-oam}
