// Kept so that code written against the single-backend storage keeps compiling:
// the records and the Store interface are in storage/store.h.
#pragma once

#include "storage/store.h"
