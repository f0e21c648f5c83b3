"""`python -m extdeps ARGS` and the `extdeps` console script: the bundled program, run in this
process's place (its exit status is the program's)."""

import os
import sys

from extdeps import program


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        path = program()
    except FileNotFoundError as e:
        sys.stderr.write("extdeps: %s\n" % e)
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, ["extdeps"] + args)
    return 127  # not reached: execv replaces the process or raises


if __name__ == "__main__":
    sys.exit(main())
