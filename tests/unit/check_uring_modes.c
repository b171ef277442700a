/* SPDX-License-Identifier: MIT */
/*
 * Description: the io_uring modes write and read back every block they claim and stop when told.
 *
 * check_every_mode.c's cases of every mode, built again for the modes on
 * io_uring alone (uring, uring-read): a program of their own, so that
 * where the machine cannot run io_uring (a kernel without it, one that
 * disables it, a build without liburing) it exits 77 saying why, and
 * make check's summary shows the SKIP instead of a pass that tested
 * nothing; check_every_mode runs every other mode's cases.
 */
#define T_URING_MODES 1
#include "check_every_mode.c"
