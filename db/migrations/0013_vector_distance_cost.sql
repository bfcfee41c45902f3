-- A cosine distance over 1,536 dimensions is about as much work as a thousand ordinary operators,
-- but pgvector declares it at the default cost of one. Costed like that, the planner computes the
-- distance to every memory an organization holds (a scan and a sort: 40 ms at 3,000 memories on
-- PGlite) rather than read the nearest few from the HNSW index (7 ms). A role that does not own
-- the extension cannot change it: retrieval stays correct, only slower, so that is not an error.
DO $$
BEGIN
  ALTER FUNCTION cosine_distance(vector, vector) COST 100;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'cosine_distance keeps its cost: this role does not own the vector extension';
END
$$;
