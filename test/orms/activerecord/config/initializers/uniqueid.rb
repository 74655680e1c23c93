# uniqueid's own tables stay out of db/schema.rb: the extension makes them
ActiveRecord::SchemaDumper.ignore_tables += %w[uniqueid_node_claims uniqueid_node_registry]
