/* Naive brute force of the six-card hands of 52 (bench/analysis.py): every hand, its six five-card
   subsets each judged from rank counts, flush and straight (ace high or low), the best category
   kept.  Prints "category=count" per category.  Card c: rank c / 4 (0 = deuce .. 12 = ace), suit c % 4. */
#include <stdio.h>

enum { HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, SFLUSH, ROYAL, NCAT };
static const char *NAME[NCAT] = {"high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                                 "full_house", "four_of_a_kind", "straight_flush", "royal_flush"};

static int five(const int *c) {
    int cnt[13] = {0}, flush = 1, pairs = 0, trips = 0, quads = 0, straight = 0, top = -1;
    for (int i = 0; i < 5; i++) {
        cnt[c[i] / 4]++;
        if (c[i] % 4 != c[0] % 4) flush = 0;
    }
    for (int r = 0; r < 13; r++) {
        if (cnt[r] == 2) pairs++;
        if (cnt[r] == 3) trips++;
        if (cnt[r] == 4) quads++;
    }
    for (int t = 12; t >= 4 && !straight; t--)
        if (cnt[t] && cnt[t - 1] && cnt[t - 2] && cnt[t - 3] && cnt[t - 4]) { straight = 1; top = t; }
    if (!straight && cnt[12] && cnt[0] && cnt[1] && cnt[2] && cnt[3]) { straight = 1; top = 3; }
    if (straight && flush) return top == 12 ? ROYAL : SFLUSH;
    if (quads) return QUADS;
    if (trips && pairs) return FULL;
    if (flush) return FLUSH;
    if (straight) return STRAIGHT;
    if (trips) return TRIPS;
    if (pairs == 2) return TWO_PAIR;
    if (pairs == 1) return PAIR;
    return HIGH;
}

int main(void) {
    long long count[NCAT] = {0};
    int h[6], s[5];
    for (h[0] = 0; h[0] < 52; h[0]++)
     for (h[1] = h[0] + 1; h[1] < 52; h[1]++)
      for (h[2] = h[1] + 1; h[2] < 52; h[2]++)
       for (h[3] = h[2] + 1; h[3] < 52; h[3]++)
        for (h[4] = h[3] + 1; h[4] < 52; h[4]++)
         for (h[5] = h[4] + 1; h[5] < 52; h[5]++) {
            int best = HIGH;
            for (int drop = 0; drop < 6; drop++) {
                for (int i = 0, j = 0; i < 6; i++)
                    if (i != drop) s[j++] = h[i];
                int v = five(s);
                if (v > best) best = v;
            }
            count[best]++;
         }
    for (int i = 0; i < NCAT; i++) printf("%s=%lld\n", NAME[i], count[i]);
    return 0;
}
