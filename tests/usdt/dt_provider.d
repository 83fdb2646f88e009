/*
 * dt_provider.d - providers in the style of PostgreSQL's probes.d:
 * types named by #define, so `sonde dtrace -C` must preprocess it.
 * Used by tests/run/usdt_dtrace.sh with dt_prog.c.
 */
#define TxnId unsigned int
#define LockMode int

provider shop {
	probe order__placed(TxnId, const char *, LockMode);
	probe order__shipped(TxnId id, uint64_t weight_g);
	probe audit(void);
	probe many(int, int, int, int, int, int, int, int, int, int, int, int);
};

provider stock {
	probe low(const char *item, long count);
};
