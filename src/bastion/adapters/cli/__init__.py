"""adapters/cli"""
