/* SPDX-License-Identifier: MIT */
/* The start gate of a run's threads (gate.h). */
#include "config.h"

#include <time.h>

#include "gate.h"

bool gate_arrive(struct start_gate *g, unsigned *counter, const bool *open)
{
    pthread_mutex_lock(&g->lock);
    (*counter)++;
    pthread_cond_broadcast(&g->changed);
    while (!*open)
        pthread_cond_wait(&g->changed, &g->lock);
    const bool go_on = !g->abort;
    pthread_mutex_unlock(&g->lock);
    return go_on;
}

void gate_leave(struct start_gate *g, unsigned *counter)
{
    pthread_mutex_lock(&g->lock);
    (*counter)++;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

void gate_wait(struct start_gate *g, const unsigned *counter, unsigned want,
               void (*round)(void *ctx), void *ctx)
{
    while (*counter < want) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 5000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        (void)pthread_cond_timedwait(&g->changed, &g->lock, &until);
        round(ctx);
    }
}

void gate_open(struct start_gate *g, bool *flag)
{
    *flag = true;
    pthread_cond_broadcast(&g->changed);
}
