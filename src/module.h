/*
 * module.h - what module.c offers: the module's entry point _PG_init, which
 * PostgreSQL's fmgr.h declares (compat.h on 15), and its magic block.
 * Nothing in src/ calls them.
 */
#ifndef UNIQUEID_MODULE_H
#define UNIQUEID_MODULE_H

#include "compat.h"

#endif							/* UNIQUEID_MODULE_H */
