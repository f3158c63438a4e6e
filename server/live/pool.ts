import pg from 'pg';

/** Connections of the socket.io PostgreSQL adapter (one holds LISTEN), and its table for large events. */
export async function openLivePool(databaseUrl: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  try {
    await pool.query(
      'CREATE TABLE IF NOT EXISTS public.socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)',
    );
  } catch (error) {
    // Two instances starting together can both try to create it; one wins (duplicate type/table).
    if (!['23505', '42P07'].includes((error as { code?: string }).code ?? '')) throw error;
  }
  return pool;
}
