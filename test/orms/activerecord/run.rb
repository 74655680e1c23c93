# t/076_orms.pl's ActiveRecord side, run in a copy of this directory, with
# config/database.yml as a Rails application loads it:
#   ruby run.rb migrate   runs the migrations of db/migrate and dumps
#                         db/schema.rb, as `bin/rails db:migrate` does
#                         (ActiveRecord::Tasks), then creates an author
#                         (create!) and 300 books with insert_all in
#                         batches of 100, returning their keys; prints as
#                         JSON the keys ActiveRecord got back, the keys in
#                         the table, and the schema.rb it wrote
#   ruby run.rb load      loads db/schema.rb into the database, as
#                         `bin/rails db:schema:load` does, and creates an
#                         author; prints its key
require "active_record"
require "erb"
require "json"
require "yaml"

config = YAML.safe_load(ERB.new(File.read("config/database.yml")).result, aliases: true)
ActiveRecord::Base.configurations = config
ActiveRecord::Base.establish_connection(:development)
tasks = ActiveRecord::Tasks::DatabaseTasks
tasks.env = "development"
tasks.db_dir = "db"
tasks.migrations_paths = ["db/migrate"]
tasks.database_configuration = config
db_config = ActiveRecord::Base.configurations.configs_for(env_name: "development").first

class Author < ActiveRecord::Base
  has_many :books
end

class Book < ActiveRecord::Base
  belongs_to :author
end

case ARGV[0]
when "migrate"
  tasks.migrate
  tasks.dump_schema(db_config)
  author = Author.create!(name: "Ursula")
  rows = (0...300).map { |i| { author_id: author.id, title: "book #{i}" } }
  books = rows.each_slice(100).flat_map { |batch| Book.insert_all(batch, returning: %w[id]).rows.flatten }
  puts JSON.generate(
    activerecord: ActiveRecord.version.to_s,
    migrations: ActiveRecord::Base.connection.select_values("SELECT version FROM schema_migrations"),
    author: author.id.to_s,
    author_class: author.id.class.name,
    books: books.map(&:to_s),
    book_table: Book.connection.select_values("SELECT id::text FROM books ORDER BY id"),
    schema: File.read("db/schema.rb")
  )
when "load"
  tasks.load_schema(db_config)
  puts JSON.generate(author: Author.create!(name: "Octavia").id.to_s)
else
  abort "usage: ruby run.rb migrate|load"
end
