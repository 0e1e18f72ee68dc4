"""Operators' steps on a cluster: writing a release (``arcana release``) and stopping, starting and
looking at a namespace (``arcana ops``); reading the operators' audit log (``arcana audit``)."""
