# file: table.c
# The reclaimer forgets the rule: it kills idle objects whose error nobody
# has seen. The stress oracle must report a LOST ERROR.
/MUTANT: reclaim_unseen/s/if (w && /if (0 \&\& w \&\& /
