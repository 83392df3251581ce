"""The memory figures of the benchmarks' measured child processes.

A measured run goes in a fresh interpreter (its peak is then its own, the parent's size not
carried over); the child's script starts with :data:`STATUS_SOURCE` and reads its RSS with
``status("VmRSS:")`` and its peak with ``status("VmHWM:")``, in bytes.
"""

#: Python source of ``status(field)``: a ``/proc/self/status`` figure in bytes (0 if absent).
STATUS_SOURCE = r"""
def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return 0
"""
