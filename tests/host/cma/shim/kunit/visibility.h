/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: <kunit/visibility.h>; the host harness links everything in. */
#ifndef __SHIM_KUNIT_VISIBILITY_H
#define __SHIM_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
