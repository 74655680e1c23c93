-- pg_temp.try(q): runs q and returns 'accepted', or its SQLSTATE and message
-- (included by the regression tests that list what inputs are refused)
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
