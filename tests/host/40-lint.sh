#!/usr/bin/env bash
# make lint passes, and its checkpatch stage catches a patch with style
# problems.
# lab-check: beside-guests (host work only, on the kernels already built)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$LAB_ROOT"

if out=$(scripts/lint.sh 2>&1); then
	t_pass "lint: checkpatch --strict and sparse clean for every patch"
else
	echo "$out" | tail -n 20
	t_fail "lint: checkpatch --strict and sparse clean for every patch"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/0001-bad.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: dying-memcg-lab <lab@dying-memcg-lab.invalid>
Subject: [PATCH] mm: a patch with style problems

No sign-off, and trailing white space below.
---
 mm/vmscan.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/mm/vmscan.c b/mm/vmscan.c
--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -1,3 +1,4 @@
 // SPDX-License-Identifier: GPL-2.0
+int lab_bad_style = 1; 
 /*
  *  Copyright (C) 1991, 1992, 1993, 1994  Linus Torvalds
PATCH
t_expect_error "lint: checkpatch stage rejects a patch with style problems" \
	"errors\|warnings" scripts/lint-checkpatch.sh "$tmp/0001-bad.patch"
