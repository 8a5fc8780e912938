/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <linux/init.h>.  Parameters and initcalls register with the harness. */
#ifndef __SHIM_LINUX_INIT_H
#define __SHIM_LINUX_INIT_H

#define __init
#define __initdata
#define __initconst
#define __exit

void shim_register_param(const char *name, int (*fn)(char *val));
void shim_register_initcall(const char *name, int (*fn)(void));

#define early_param(str, fn)						\
	static void __attribute__((constructor)) __shim_param_##fn(void) \
	{ shim_register_param(str, fn); }

#define __shim_initcall(fn)						\
	static void __attribute__((constructor)) __shim_initcall_##fn(void) \
	{ shim_register_initcall(#fn, fn); }
#define core_initcall(fn)	__shim_initcall(fn)
#define core_initcall_sync(fn)	__shim_initcall(fn)
#define postcore_initcall(fn)	__shim_initcall(fn)
#define subsys_initcall(fn)	__shim_initcall(fn)
#define device_initcall(fn)	__shim_initcall(fn)
#define late_initcall(fn)	__shim_initcall(fn)
#define late_initcall_sync(fn)	__shim_initcall(fn)

#endif
