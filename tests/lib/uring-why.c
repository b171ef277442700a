/* SPDX-License-Identifier: MIT */
/*
 * Description: why io_uring cannot run here, for the shell tests to ask
 * (tests/lib/cli.sh: t_uring_probe): one line of the machine's reason
 * (tests/lib/t_uring.h), nothing where io_uring runs.
 */
#include "t_uring.h"

int main(void)
{
    const char *why = t_uring_unavailable();
    if (why)
        printf("%s\n", why);
    return ferror(stdout) ? 1 : 0;
}
