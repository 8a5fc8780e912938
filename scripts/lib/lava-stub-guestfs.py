"""A stand-in for libguestfs's Python module (package python3-guestfs).

lava_dispatcher.utils.filesystem imports guestfs at load time; only the
actions that build disk images (a qcow2 test overlay, an image deploy)
use it, and a qemu job deployed to tmpfs with interactive and monitor
tests uses none of them.  Put on lava-run's path by scripts/lava-run.sh (as stub/guestfs.py) so that
python3-guestfs (libguestfs, supermin, qemu-system-x86...) need not be
installed; a job that needs it fails with this message.
"""


class GuestFS:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("libguestfs is not installed (scripts/lava-run.sh: install python3-guestfs, "
                           "or S5P_LAVA_SYSTEM=1, for jobs that build disk images)")
