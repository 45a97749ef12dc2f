/* Planted for man-names-bites-header: an inline function with no man page. */
static inline int errseq_planted_inline(const errseq_t *eseq)
{
	return *eseq != 0;
}
