for o in $outputs; do eval "p=\$$o"; /bin/mkdir -p "$p/bin"; echo "$o" > "$p/bin/$name-$o"; done
