/*
 * serial.h - uniqueid.serial_normalization (serial.c): the bigserial and
 * bigint identity columns that applications create become bigint columns
 * defaulting to next_snowflake(), rewritten in a ProcessUtility hook.
 */
#ifndef UNIQUEID_SERIAL_H
#define UNIQUEID_SERIAL_H

/* Defines the setting and installs the hook; from _PG_init, when preloaded. */
extern void uid_serial_init(void);

#endif							/* UNIQUEID_SERIAL_H */
