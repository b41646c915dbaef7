// SPDX-License-Identifier: GPL-2.0
/*
 * lab_splat: raise a real kernel warning on load, so that the lab can show
 * that its console scanner fails a run whose tests all passed.
 * Load only in a lab guest: insmod lab_splat.ko
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init lab_splat_init(void)
{
	WARN(1, "lab_splat: deliberate warning for the runner self-test\n");
	return 0;
}

static void __exit lab_splat_exit(void)
{
}

module_init(lab_splat_init);
module_exit(lab_splat_exit);
MODULE_DESCRIPTION("Deliberate WARN for the lab's splat detection test");
MODULE_LICENSE("GPL");
