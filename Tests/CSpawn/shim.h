// glibc's posix_spawn actions that Swift's Glibc module leaves out (they need _GNU_SOURCE):
// the tests' child processes get only the descriptors they are given, in the directory asked.
#include <spawn.h>

int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
