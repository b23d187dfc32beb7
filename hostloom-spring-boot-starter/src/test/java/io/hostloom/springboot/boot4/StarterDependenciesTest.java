package io.hostloom.springboot.boot4;

import io.hostloom.springboot.StarterDependenciesContract;

/** This starter's own dependencies give an application YAML configuration and logging. */
class StarterDependenciesTest extends StarterDependenciesContract {}
