"""The one registry of agent CLIs Bastion protects: ``bastion.agents.registry``."""
