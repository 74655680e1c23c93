/*
 * node.h - the node number leased from a registry (node.c).
 */
#ifndef UNIQUEID_NODE_H
#define UNIQUEID_NODE_H

extern void uid_node_shmem_request(void);
extern void uid_node_shmem_startup(void);
extern void uid_node_register_worker(void);
extern int	uid_node_in_use(void);

#endif							/* UNIQUEID_NODE_H */
