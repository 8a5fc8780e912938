BUG:
BUG [^ ]+ \((Not tainted|Tainted: [^)]*)\)
WARNING:
Oops
Unable to handle
Internal error
Kernel panic
UBSAN:
DMA-API: ([^ ]+ [^ ]+: |debugging out of memory|cacheline tracking)
ODEBUG: 
unreferenced object 0x
INFO: task .* blocked
INFO: trying to register non-static key
turning off the locking correctness validator
rcu: INFO:
detected stall
cut here
list_add corruption
list_del corruption
refcount_t:
invoked oom-killer:
[Oo]ut of memory.*: Killed process
page allocation failure: order:[0-9]+
irq [0-9]+: nobody cared
Disabling IRQ #[0-9]+
